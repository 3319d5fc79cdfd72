// --kernel ... --svg FILE: the bank map and the warp states in one well-formed SVG; --html FILE:
// one self-contained page with the kernel summary, both pictures and a row per instruction. On
// bank_conflict.hwk with one warp: stride 32 reads every word from bank 0 (32-way), stride 1
// spreads each load over the 32 banks. `--svg -` puts the picture on stdout, the report off it.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "tests/fixtures/test_support.h"
#include "tests/fixtures/xml_check.h"

using namespace hwsim::test;

namespace {
const std::string kKernel = "--chip h100 --set gpu.core.model=warp --kernel workloads/kernels/bank_conflict.hwk "
                            "--grid 1 --block 32 --arg iters=16 ";

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("kernel: --svg and --html draw the bank map and the warp states") {
  auto svg = (scratch_dir() / "k.svg").string(), html = (scratch_dir() / "k.html").string();
  CliRun r = run_hwsim(kKernel + "--arg stride=32 --json - --svg " + svg + " --html " + html);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto doc = nlohmann::json::parse(r.out);  // the JSON alone on stdout
  std::string picture = read_text(svg);
  auto check = check_xml(picture);
  CHECK(check.error == "");
  CHECK(check.counts["svg"] == 3);  // the document, the bank map, the warp states
  CHECK(count(picture, "avg 32-way, worst 32, 1 bank<") == 4);  // the four ld.shared
  CHECK(count(picture, "avg 1-way, worst 1, 32 banks<") == 1);  // the fill's st.shared
  CHECK(contains(picture, "Warp states (Nsight Compute stall reasons)"));
  CHECK(contains(picture, ">short_scoreboard<"));
  std::string page = read_text(html);
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(count(page, "<svg ") == 2);
  CHECK(contains(page, "<td>kernel</td><td>bank_conflict (workloads/kernels/bank_conflict.hwk)</td>"));
  CHECK(count(page, "<tr><td data-v=") == int(doc["instructions"].size()));
  CHECK_FALSE(std::regex_search(page, std::regex(R"re((src|href)\s*=\s*"(https?:)?//)re")));
  // the JSON's new per-bank counters agree: 4 requests x 32 words on bank 0
  for (const auto& in : doc["instructions"])
    if (in.contains("bank_conflict_ways") && in["bank_conflict_ways"].get<double>() == 32) CHECK(in["bank_words"][0] == 128);
}

TEST_CASE("kernel: stride 1 spreads the loads over 32 banks and --svg - writes the picture to stdout alone") {
  CliRun r = run_hwsim(kKernel + "--arg stride=1 --svg -");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out.rfind("<?xml", 0) == 0);
  CHECK(check_xml(r.out).error == "");
  CHECK(count(r.out, "avg 1-way, worst 1, 32 banks<") == 5);
  CHECK_FALSE(contains(r.out, "kernel bank_conflict ("));  // no text report
}
