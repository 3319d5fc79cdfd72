// Kernel errors are one stderr line and exit code 4: parse error (file:line:col), out of
// bounds (kernel, instruction, lane, address), --max-cycles; --kernel without the warp model
// is a usage error (2).
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

static const std::string kWarp = "--chip configs/h100.toml --set gpu.core.model=warp ";

TEST_CASE("cli kernel: out-of-bounds exits 4 with one line") {
  CliRun r = run_hwsim(kWarp + "--kernel workloads/kernels/vector_add.hwk --grid 2 --block 64 --arg a=100");
  CHECK(r.exit_code == 4);
  auto lines = lines_of(r.err);
  REQUIRE(lines.size() == 1);
  CHECK(contains(lines[0], "kernel vector_add: out-of-bounds load at workloads/kernels/vector_add.hwk:20"));
  CHECK(contains(lines[0], "lane"));
  CHECK(contains(lines[0], "address 0x"));
}

TEST_CASE("cli kernel: --max-cycles stops a long run with exit 4") {
  CliRun r = run_hwsim(kWarp + "--kernel workloads/kernels/divergence.hwk --grid 1 --block 32 --max-cycles 1000");
  CHECK(r.exit_code == 4);
  CHECK(contains(r.err, "stopped at --max-cycles 1000"));
}
