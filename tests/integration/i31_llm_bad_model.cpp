// An unknown model is one line on stderr listing the known ones, with the workload exit code.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: an unknown LLM model exits 4 with one line listing the models") {
  CliRun r = run_hwsim("--chip configs/h100.toml --workload decode:model=llama3_9b,context=5 --quiet");
  CHECK(r.exit_code == 4);
  CHECK(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "llama3_8b"));
  CHECK(contains(r.err, "did you mean"));
}
