// The fitted-records file that keeps validation honest: an entry matches records of its file and
// kind whose fields equal all of `match` (numbers by value); malformed files are one clear error.
#include <doctest/doctest.h>

#include <fstream>

#include "app/validate/validate.h"
#include "sim/error.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
std::string write(const std::string& name, const std::string& text) {
  auto path = scratch_dir() / name;
  std::ofstream(path) << text;
  return path.string();
}

Measurement record(const std::string& kind, nlohmann::json fields) {
  Measurement m;
  m.kind = kind;
  m.fields = std::move(fields);
  return m;
}
}  // namespace

TEST_CASE("fitted records: match by file, kind and fields") {
  FittedRecords f = FittedRecords::load(write("fitted.toml", R"(
[[fitted]]
parameter = "p.attention"
file = "llm.jsonl"
kind = "attention"
match = { batch = 4, causal = false }
)"));
  CHECK(f.fitted(record("attention", {{"batch", 4}, {"causal", false}, {"q_len", 4096}}), "/x/llm.jsonl") ==
        "p.attention");
  CHECK(f.fitted(record("attention", {{"batch", 4.0}, {"causal", false}}), "llm.jsonl") == "p.attention");
  CHECK(f.fitted(record("attention", {{"batch", 4}, {"causal", true}}), "llm.jsonl").empty());
  CHECK(f.fitted(record("gemm", {{"batch", 4}, {"causal", false}}), "llm.jsonl").empty());
  CHECK(f.fitted(record("attention", {{"batch", 4}, {"causal", false}}), "other.jsonl").empty());
}

TEST_CASE("fitted records: a malformed file is one error naming the file") {
  CHECK_THROWS_WITH(FittedRecords::load(write("bad1.toml", "[[fitted]]\nfile = \"a\"\n")),
                    doctest::Contains("parameter"));
  CHECK_THROWS_WITH(FittedRecords::load(write("bad2.toml", "x = 1\n")), doctest::Contains("[[fitted]]"));
}
