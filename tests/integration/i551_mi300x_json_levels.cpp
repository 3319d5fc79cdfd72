// MI300X's JSON has three memory levels (l2, mall, hbm); a 4096³ GEMM fetches more from the
// Infinity Cache with 8 private XCD L2s than with one shared L2 of the same 32 MiB
// (--set gpu.partitions=1), while device memory sees the same compulsory bytes.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/json_run.h"

using namespace hwsim::test;

namespace {
nlohmann::json run_json(const std::string& args, const std::string& name) { return run_hwsim_json(args, name); }
}  // namespace

TEST_CASE("cli mi300x: l2, mall and hbm bytes, and private XCD L2s lose reuse that one shared L2 keeps") {
  auto xcd = run_json("--chip mi300x -w gemm:M=4096,N=4096,K=4096", "xcd.json");
  auto shared = run_json("--chip mi300x -w gemm:M=4096,N=4096,K=4096 --set gpu.partitions=1", "shared.json");
  CHECK(xcd["device"]["memory_levels"] == nlohmann::json::array({"l2", "mall", "hbm"}));
  const auto& b = xcd["result"]["bytes"];
  const auto& s = shared["result"]["bytes"];
  // The same operand bytes enter the L2s either way.
  CHECK(b["l2"].get<double>() == doctest::Approx(s["l2"].get<double>()).epsilon(0.01));
  // Reuse across XCDs is lost: several times the next-level traffic.
  CHECK(b["mall"].get<double>() > 3 * s["mall"].get<double>());
  // The Infinity Cache (256 MiB) holds both 32 MiB operands: device memory reads them once.
  double compulsory = 2 * 4096.0 * 4096 * 2;
  CHECK(b["hbm"].get<double>() == doctest::Approx(compulsory).epsilon(0.05));
  CHECK(s["hbm"].get<double>() == doctest::Approx(compulsory).epsilon(0.05));
}

TEST_CASE("cli h100: the JSON levels stay l2 and hbm") {
  auto h = run_json("--chip h100 -w gemm:M=1024,N=1024,K=1024", "h100.json");
  CHECK(h["device"]["memory_levels"] == nlohmann::json::array({"l2", "hbm"}));
  CHECK_FALSE(h["result"]["bytes"].contains("mall"));
}
