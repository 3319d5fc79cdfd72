// On a system run, --set KEY=VALUE goes to the system when KEY is a system key, else to the chip.
// A misspelt system key (scale_up.swiches) must still be one line, exit 3, suggesting the system
// key it resembles, not only "unknown key ... of a gpu chip".
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli system: a misspelt system key in --set exits 3 with a did-you-mean") {
  CliRun r = run_hwsim("--system h200x2 -w collective:op=all_reduce,bytes=1MiB --set scale_up.swiches=2");
  CHECK(r.exit_code == 3);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "scale_up.swiches"));
  CHECK(contains(r.err, "did you mean scale_up.switches?"));
}
