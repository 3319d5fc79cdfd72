// Class "crashes": inputs that once killed hwsim with a signal now get one line (or run).
#include "tests/hostile/hostile.h"

using namespace hwsim::hostile;

TEST_CASE("hostile crash, --set: a shared memory no GEMM tile fits is one line, not a segfault") {
  refused("--chip h100 --set gpu.sm.shared_memory=16KiB -w decode_llama8b -q", 4, "no tile of the library's list fits");
}

TEST_CASE("hostile crash, --set: a register granule of 2^31-1 is out of range, not a division by zero") {
  refused("--chip h100 --set gpu.core.model=warp --set gpu.warp.register_granule=2147483647 "
          "--kernel workloads/kernels/vector_add.hwk --grid 1 --block 32 -q",
          3, "gpu.warp.register_granule: 2147483647 is out of range");
}

TEST_CASE("hostile crash, kernel program: INT_MIN / -1 and INT_MIN % -1 wrap as on the GPU, no SIGFPE") {
  auto dir = case_dir();
  write_input(dir, "divmin.hwk",
              ".kernel divmin\n.param buf out s32 = 2\n.param s32 a = -2147483648\n.param s32 b = -1\n"
              ".reg s32 q, r\n.reg u64 p\n    div.s32 q, a, b\n    rem.s32 r, a, b\n"
              "    st.global.s32 [out], q\n    add.u64 p, out, 4\n    st.global.s32 [p], r\n    exit\n");
  std::string out = accepted(dir, "--chip h100 --set gpu.core.model=warp --kernel {dir}/divmin.hwk --grid 1 --block 1 "
                                  "--dump out -q");
  CHECK(hwsim::test::contains(out, "out (2 x s32): -2147483648 0"));
}

TEST_CASE("hostile crash, chip TOML: a dotted key of 60,000 parts is one line, not a stack overflow") {
  auto dir = case_dir();
  std::string key = "a";
  for (int i = 1; i < 60000; ++i) key += ".a";
  write_input(dir, "deep.toml", "name = \"deep\"\n" + key + " = 1\n");
  refused(dir, "--chip {dir}/deep.toml -w decode_llama8b -q", 3, "nested more than 64 levels");
}

TEST_CASE("hostile crash, system file: tables nested 100,000 deep are one line") {
  auto dir = case_dir();
  write_input(dir, "deep_system.toml", "kind = \"system\"\nx = " + std::string(100000, '[') + "\n");
  refused(dir, "--system {dir}/deep_system.toml -w decode_llama8b -q", 3, "nested more than 64 levels");
}

TEST_CASE("hostile crash, sweep file: a deep dotted key is one line (exit 2, as every bad sweep file)") {
  auto dir = case_dir();
  std::string key = "v";
  for (int i = 1; i < 70; ++i) key += ".v";
  write_input(dir, "deep_sweep.toml", "chip = \"h100\"\n" + key + " = 1\n");
  refused(dir, "sweep {dir}/deep_sweep.toml", 2, "nested more than 64 levels");
}
