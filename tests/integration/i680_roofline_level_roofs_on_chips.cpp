// The roofline of a real run draws a roof per memory level at the chip file's bandwidths, and the
// JSON carries them (result.bandwidth_peak): H100 (l2 7 TB/s, hbm 3.35 TB/s), a TPU (vmem, hbm),
// an MI300X (l2, mall, hbm). Every earlier field is still there.
#include <doctest/doctest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"
#include "tests/fixtures/xml_check.h"
#include "viz/svg/svg.h"

using namespace hwsim::test;
using hwsim::svg::short_number;

namespace {
struct Pictured {
  nlohmann::json doc;
  std::string svg;
};
Pictured run_with_svg(const std::string& args, const std::string& name) {
  auto json = (scratch_dir() / (name + ".json")).string(), svg = (scratch_dir() / (name + ".svg")).string();
  CliRun r = run_hwsim(args + " --quiet --json " + json + " --svg " + svg);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return {nlohmann::json::parse(read_text(json)), read_text(svg)};
}
}  // namespace

TEST_CASE("roofline: an H100 GEMM has an l2 and an hbm roof at their peak bandwidths") {
  Pictured p = run_with_svg("--chip h100 -w gemm:M=4096,N=4096,K=4096,dtype=bf16", "h100_gemm");
  const auto& result = p.doc["result"];
  CHECK(result["bandwidth_peak"]["l2"].get<double>() == 7e12);     // configs/h100.toml [memory.l2]
  CHECK(result["bandwidth_peak"]["hbm"].get<double>() == 3.35e12);  // [memory.hbm], [DS]
  CHECK(result["bandwidth"]["hbm_peak"].get<double>() == 3.35e12);  // the earlier field stays
  double peak = result["peak_flop_rate"].get<double>();
  CHECK(check_xml(p.svg).error == "");
  CHECK(contains(p.svg, fmt::format("l2 7TB/s, ridge {:.3g} at bf16", peak / 7e12)));
  CHECK(contains(p.svg, fmt::format("bf16 peak {}FLOP/s, ridge {:.3g}<", short_number(peak), peak / 3.35e12)));
  CHECK(contains(p.svg, ">hbm 3.35TB/s<"));
}

TEST_CASE("roofline: a TPU draws its vmem roof, an MI300X its l2 and mall roofs") {
  Pictured tpu = run_with_svg("--chip tpu_v5e -w gemm:M=2048,N=2048,K=2048,dtype=bf16", "tpu_gemm");
  const auto& levels = tpu.doc["device"]["memory_levels"];
  REQUIRE(levels.size() == 2);
  double vmem = tpu.doc["result"]["bandwidth_peak"]["vmem"].get<double>();
  CHECK(vmem > 0);
  double tpu_peak = tpu.doc["result"]["peak_flop_rate"].get<double>();
  CHECK(contains(tpu.svg, fmt::format("vmem {}B/s, ridge {:.3g} at bf16", short_number(vmem), tpu_peak / vmem)));
  Pictured amd = run_with_svg("--chip mi300x -w gemm:M=4096,N=4096,K=4096,dtype=bf16", "mi300x_gemm");
  CHECK(amd.doc["result"]["bandwidth_peak"].size() == 3);
  CHECK(contains(amd.svg, ">l2 "));
  CHECK(contains(amd.svg, ">mall "));
  CHECK(check_xml(amd.svg).error == "");
}
