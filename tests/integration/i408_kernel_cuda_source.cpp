// --kernel FILE.cu: a student's whole file (kernels and host code) compiled with clang through
// hwsim's shim, its kernels listed and run by name with 2-D launches, positional arguments and
// dynamic shared memory; a compile error shows clang's messages and exits 4. Skipped where clang
// is absent.
#include <doctest/doctest.h>
#include <cstdlib>
#include <fstream>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
bool have_clang() { return std::system("command -v clang++ >/dev/null 2>&1") == 0; }
const std::string kFile = "tests/data/kernels/student_reduce.cu";
}  // namespace

TEST_CASE("cli kernel .cu: --list names the kernels, their C++ signatures and parameters") {
  if (!have_clang()) { MESSAGE("skipped: no clang++"); return; }
  CliRun r = run_hwsim("--kernel " + kFile + " --list");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "reduce_shared(float const*, float*, unsigned int)"));
  CHECK(contains(r.out, "transpose_tile<1>(float*, float const*, int)"));
  CHECK(contains(r.out, "histogram_shared(unsigned char const*, unsigned int*, int)"));
  CHECK(contains(r.out, "0: unsigned char const*"));
}

TEST_CASE("cli kernel .cu: a reduction with dynamic shared memory sums each block") {
  if (!have_clang()) { MESSAGE("skipped: no clang++"); return; }
  CliRun r = run_hwsim("--chip configs/h100.toml --kernel " + kFile +
                       " --entry reduce_shared --grid 8 --block 256 --dynamic-shared 1024"
                       " --arg 0=f32[2048]:ones --arg 1=f32[8]:zeros --arg 2=2048 --dump 1");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "1 (8 x f32): 256 256 256 256 256 256 256 256"));
}

TEST_CASE("cli kernel .cu: a 2-D transpose by template instance; byte histogram with shared atomics") {
  if (!have_clang()) { MESSAGE("skipped: no clang++"); return; }
  CliRun t = run_hwsim("--chip configs/h100.toml --kernel " + kFile +
                       " --entry 'transpose_tile<1>' --grid 2,2 --block 32,8 --arg 0=f32[4096]:zeros --arg 1=f32[4096]:iota"
                       " --arg 2=64 --dump 0");
  REQUIRE(t.exit_code == 0);
  CHECK(contains(t.out, "0 (4096 x f32): 0 64 128 192"));  // out[0][j] = in[j][0]
  CliRun h = run_hwsim("--chip configs/h100.toml --kernel " + kFile +
                       " --entry histogram_shared --grid 4 --block 128 --arg 0=u8[1024]:iota --arg 1=u32[256]:zeros --arg 2=1024 --dump 1");
  REQUIRE(h.exit_code == 0);
  CHECK(contains(h.out, "1 (256 x u32): 4 4 4 4"));  // bytes 0..255, four times
}

TEST_CASE("cli kernel .cu: clang's own messages, then one line and exit 4") {
  if (!have_clang()) { MESSAGE("skipped: no clang++"); return; }
  const std::string path = (scratch_dir() / "bad.cu").string();
  std::ofstream(path) << "__global__ void k(float* a) { a[threadIdx.x] = undeclared; }\n";
  CliRun r = run_hwsim("--chip configs/h100.toml --kernel " + path + " --arg 0=f32[32]");
  CHECK(r.exit_code == 4);
  CHECK(contains(r.err, "use of undeclared identifier 'undeclared'"));
  CHECK(contains(r.err, "could not compile it (its messages above)"));
  CliRun e = run_hwsim("--chip configs/h100.toml --kernel " + kFile + " --grid 1 --block 32");
  CHECK(e.exit_code == 4);
  CHECK(contains(e.err, "4 kernels; choose one with --entry NAME"));
  CliRun a = run_hwsim("--chip configs/h100.toml --kernel " + kFile + " --entry reduce_shared --arg 0=u32[16] --arg 1=f32[1] --arg 2=1");
  CHECK(a.exit_code == 4);
  CHECK(contains(a.err, "its buffer is of f32 (the kernel's pointer type), not u32"));
  CliRun g = run_hwsim("--chip configs/h100.toml --kernel " + kFile + " --entry reduce_shared --grid 0,2");
  CHECK(g.exit_code == 2);
  CHECK(contains(g.err, "--grid '0,2': expected X[,Y[,Z]]"));
}

TEST_CASE("cli kernel: a chip of 64-wide wavefronts is refused in one line") {
  CliRun r = run_hwsim("--chip configs/mi300x.toml --kernel workloads/kernels/vector_add.hwk --grid 4 --block 256");
  CHECK(r.exit_code == 3);
  CHECK(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "the warp model runs 32-lane warps, and gpu.sm.warp_size is 64"));
}
