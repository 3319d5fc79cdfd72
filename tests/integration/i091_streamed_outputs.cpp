// A run of several steps (generate) does not keep its records: each step's records go to the JSON
// and trace writers as soon as the step has run (a temporary file) and are dropped. What they
// write is, byte for byte, what they write from records kept to the end (--svg keeps them, for
// its pictures). The JSON's detail: a run of several steps defaults to the summary; --detail full
// asks for every record; a bad --detail is one line and exit 2.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
const std::string kGenerate = "--chip h100 -w generate:model=llama3_8b,batch=1,prompt=32,output=4,layers=2 -q";
}

TEST_CASE("cli: a generate's streamed JSON and trace are those written from kept records, byte for byte") {
  auto dir = scratch_dir();
  CliRun streamed = run_hwsim(kGenerate + " --detail full --json '" + (dir / "a.json").string() + "' --trace '" +
                              (dir / "a.trace").string() + "'");
  REQUIRE_MESSAGE(streamed.exit_code == 0, streamed.err);
  CliRun kept = run_hwsim(kGenerate + " --detail full --json '" + (dir / "b.json").string() + "' --trace '" +
                          (dir / "b.trace").string() + "' --svg '" + (dir / "b.svg").string() + "'");
  REQUIRE_MESSAGE(kept.exit_code == 0, kept.err);
  std::string a = read_text(dir / "a.json"), b = read_text(dir / "b.json");
  CHECK(a == b);
  CHECK(read_text(dir / "a.trace") == read_text(dir / "b.trace"));
  // Every step has its kernels: the prefill and three decode steps of 2 layers.
  auto steps = nlohmann::json::parse(a)["result"]["steps"];
  REQUIRE(steps.size() == 4);
  for (const auto& s : steps) CHECK(s["kernels"].size() > 40);
}

TEST_CASE("cli: a generate's JSON is the summary unless --detail full") {
  auto dir = scratch_dir();
  REQUIRE(run_hwsim(kGenerate + " --json '" + (dir / "s.json").string() + "'").exit_code == 0);
  auto doc = nlohmann::json::parse(read_text(dir / "s.json"));
  CHECK(doc["detail"] == "summary");
  CHECK_FALSE(doc["result"]["steps"][0].contains("kernels"));
  CHECK(doc["result"]["steps"][0]["records"].get<int>() > 40);
  // A one-step run keeps every record by default; --detail summary leaves them out.
  REQUIRE(run_hwsim("--chip h100 -w decode_llama8b:layers=2 -q --json '" + (dir / "d.json").string() + "'").exit_code == 0);
  CHECK(nlohmann::json::parse(read_text(dir / "d.json"))["result"]["steps"][0].contains("kernels"));
  REQUIRE(run_hwsim("--chip h100 -w decode_llama8b:layers=2 -q --detail summary --json '" + (dir / "e.json").string() +
                    "'").exit_code == 0);
  CHECK_FALSE(nlohmann::json::parse(read_text(dir / "e.json"))["result"]["steps"][0].contains("kernels"));
}

TEST_CASE("cli: --detail takes full or summary") {
  CliRun r = run_hwsim("--chip h100 -w decode_llama8b -q --detail everything --json -");
  CHECK(r.exit_code == 2);
  CHECK(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "--detail"));
  CHECK(r.out.empty());
}
