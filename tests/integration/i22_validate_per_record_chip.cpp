// `hwsim validate` without --chip: each record runs on its own `chip` (with its `set` overrides), the
// report gives one line per chip, kind and role, fitted records apart from judged ones, and
// --max-mape judges only the judged ones. A record that names no chip is counted, not run; a bad
// `chip`, `set` or `role` is one line naming the file, line and field.
#include <doctest/doctest.h>

#include <fstream>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
const std::string kFile = "tests/fixtures/validate/per_chip.jsonl";

bool has_line(const std::string& text, const std::vector<std::string>& words) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    bool all = true;
    for (const auto& w : words) all = all && line.find(w) != std::string::npos;
    if (all) return true;
  }
  return false;
}

std::string scratch_record(const std::string& name, const std::string& record) {
  auto path = scratch_dir() / name;
  std::ofstream(path) << record << "\n";
  return path.string();
}
}  // namespace

TEST_CASE("cli: validate without --chip runs each record on its own chip, fitted and judged apart") {
  CliRun r = run_hwsim("validate " + kFile);
  INFO(r.out);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "(each record on its own chip)"));
  CHECK(has_line(r.out, {"h100", "gemm", "fitted", " 1 "}));
  CHECK(has_line(r.out, {"h100", "gemm", "judged", " 1 "}));
  CHECK(has_line(r.out, {"a100 ", "gemm", "judged", " 1 "}));
  CHECK(has_line(r.out, {"a100 (set)", "gemm", "judged", " 1 "}));
  CHECK(has_line(r.out, {"gemm", "name no chip"}));
}

TEST_CASE("cli: validate's --max-mape judges only the judged records; --chip runs every record on it") {
  // The fitted h100 record (8 us for 1024^3) is far off on purpose; alone it must not fail the gate.
  CliRun fitted = run_hwsim("validate " + kFile + " --where role=fit --max-mape 1");
  INFO(fitted.out);
  CHECK(fitted.exit_code == 0);
  CliRun judged = run_hwsim("validate " + kFile + " --where chip=a100 --max-mape 1");
  CHECK(judged.exit_code == 6);
  CHECK(contains(judged.err, "on a100"));
  CliRun one = run_hwsim("validate " + kFile + " --chip h100");
  CHECK(one.exit_code == 0);
  CHECK(has_line(one.out, {"h100", "gemm", "judged", " 4 "}));
  CHECK_FALSE(contains(one.out, "a100"));
}

TEST_CASE("cli: validate: a record's bad chip, set or role is one line naming file, line and field") {
  struct Case {
    std::string record, expect;
  };
  for (const Case& c : {Case{R"({"kind":"gemm","M":64,"N":64,"K":64,"dtype":"bf16","seconds":1e-6,"chip":"h1000"})", ":1: chip:"},
                        Case{R"({"kind":"gemm","M":64,"N":64,"K":64,"dtype":"bf16","seconds":1e-6,"chip":"../x.toml"})", ":1: chip:"},
                        Case{R"({"kind":"gemm","M":64,"N":64,"K":64,"dtype":"bf16","seconds":1e-6,"chip":"h100","set":"x"})", ":1: set:"},
                        Case{R"({"kind":"gemm","M":64,"N":64,"K":64,"dtype":"bf16","seconds":1e-6,"chip":"h100","set":["nokey"]})", ":1: set:"},
                        Case{R"({"kind":"gemm","M":64,"N":64,"K":64,"dtype":"bf16","seconds":1e-6,"chip":"h100","role":"train"})", ":1: role:"}}) {
    CliRun r = run_hwsim("validate '" + scratch_record("bad.jsonl", c.record) + "'");
    INFO(c.record);
    INFO(r.err);
    CHECK(r.exit_code != 0);
    CHECK(contains(r.err, c.expect));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.out.empty());
  }
}
