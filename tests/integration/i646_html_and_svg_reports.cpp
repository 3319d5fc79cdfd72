// --html FILE: one self-contained page (no network) with the summary, the three charts and a
// row per kernel; --svg FILE: the charts as one well-formed SVG; sweep --svg: one line per series.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <regex>

#include "app/sweep/sweep_output.h"
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

TEST_CASE("report: a serving sweep over rate draws latency against throughput, its rows benchmark_serving's figures") {
  auto out = (scratch_dir() / "serve.csv").string(), svg = (scratch_dir() / "serve.svg").string();
  CliRun r = run_hwsim("sweep --chip h100 -w serve:model=llama3_8b,layers=2,requests=12,prompt=64,output=8,slo_ttft=50ms "
                       "--vary workload.rate=4,64 --vary workload.max_batch=2,16 --out " + out + " --svg " + svg);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto lines = lines_of(read_text(out));
  REQUIRE(lines.size() == 5);
  auto header = hwsim::split_csv_line(lines[0]);
  auto column = [&](const std::string& name) {
    auto it = std::find(header.begin(), header.end(), name);
    REQUIRE(it != header.end());
    return std::size_t(it - header.begin());
  };
  for (std::size_t row = 1; row < lines.size(); ++row) {
    auto cells = hwsim::split_csv_line(lines[row]);
    double p50 = std::stod(cells[column("ttft_p50")]), p99 = std::stod(cells[column("ttft_p99")]);
    CHECK(p50 > 0);
    CHECK(p99 >= p50);
    CHECK(std::stod(cells[column("tpot_p99")]) >= std::stod(cells[column("tpot_p50")]));
    double goodput = std::stod(cells[column("request_goodput")]);
    CHECK(goodput <= std::stod(cells[column("request_throughput")]) * (1 + 1e-12));
    CHECK(std::stod(cells[column("slo_attainment")]) <= 1);
  }
  std::string picture = read_text(svg);
  auto check = check_xml(picture);
  CHECK(check.error == "");
  CHECK(contains(picture, "TTFT against throughput"));
  CHECK(contains(picture, "TPOT against throughput"));
  CHECK(contains(picture, "workload.max_batch=16"));
  CHECK(check.counts["polyline"] == 4);  // two series in each of the two charts
  // A sweep of another workload writes no serving column.
  CliRun other = run_hwsim("sweep --chip h100 -w gemm:M=64,N=64,K=64 --vary workload.M=64,128");
  REQUIRE(other.exit_code == 0);
  CHECK_FALSE(contains(other.out, "ttft_p99"));
}
