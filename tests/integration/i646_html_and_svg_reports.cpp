// --html FILE: one self-contained page (no network) with the summary, the three charts and a
// row per kernel; --svg FILE: the charts as one well-formed SVG; sweep --svg: one line per series.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "tests/fixtures/test_support.h"
#include "tests/fixtures/xml_check.h"

using namespace hwsim::test;

static int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_CASE("report: --html writes a self-contained page with every kernel") {
  auto html = (scratch_dir() / "r.html").string(), svg = (scratch_dir() / "r.svg").string();
  CliRun r = run_hwsim("--chip h100 -w decode_llama8b --json - --html " + html + " --svg " + svg);
  REQUIRE(r.exit_code == 0);
  auto doc = nlohmann::json::parse(r.out);
  std::string page = read_text(html);
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(count(page, "<svg ") == 4);  // roofline, timeline, time by class, power over time
  CHECK(contains(page, "Power over time"));
  CHECK(contains(page, "Roofline: "));
  CHECK(contains(page, "<td>tokens/s</td>"));
  CHECK(count(page, "<tr><td data-v=") == int(doc["result"]["steps"][0]["kernels"].size()));  // 771
  CHECK_FALSE(std::regex_search(page, std::regex(R"re((src|href)\s*=\s*"(https?:)?//)re")));  // nothing fetched
  CHECK_FALSE(contains(page, "<link"));
  auto check = check_xml(read_text(svg));
  CHECK(check.error == "");
  CHECK(check.counts["svg"] == 5);  // the document and its four charts
}

TEST_CASE("report: sweep --svg draws a metric against the first key, a line per other value") {
  auto out = (scratch_dir() / "s.csv").string(), svg = (scratch_dir() / "s.svg").string();
  CliRun r = run_hwsim("sweep --chip h100 -w decode_llama8b --vary memory.hbm.bandwidth=2TB/s..4TB/s:3 "
                       "--vary workload.batch=1,8 --out " + out + " --svg " + svg);
  REQUIRE(r.exit_code == 0);
  std::string picture = read_text(svg);
  auto check = check_xml(picture);
  CHECK(check.error == "");
  CHECK(check.counts["polyline"] == 2);
  CHECK(check.counts["circle"] == 6);
  CHECK(contains(picture, "tokens_per_second against memory.hbm.bandwidth"));
  CHECK(contains(picture, "workload.batch=8"));
}

TEST_CASE("report: sweep --svg draws without --out (the rows on stdout), and --plot-y takes a metric") {
  std::string svg = (scratch_dir() / "no_out.svg").string();
  CliRun r = run_hwsim("sweep --chip h100 -w gemm:M=64,N=64,K=64 --vary workload.M=64,128 --svg " + svg);
  CHECK(r.exit_code == 0);
  CHECK(lines_of(r.out).size() == 3);  // the header and a row per point, as without --svg
  CHECK(contains(r.out, "workload.M"));
  CHECK(check_xml(read_text(svg)).counts["circle"] == 2);
  r = run_hwsim("sweep --chip h100 -w gemm:M=64,N=64,K=64 --vary workload.M=64,128 --out " +
                (scratch_dir() / "never.csv").string() + " --svg x.svg --plot-y speed");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "--plot-y speed: not a numeric metric"));
  CHECK_FALSE(std::filesystem::exists(scratch_dir() / "never.csv"));
}
