// Kernel errors are one clear UserError(workload) line, never a crash: out-of-bounds access
// (kernel, instruction, lane, address), barrier deadlock, runaway loop at the cycle limit.
#include <doctest/doctest.h>

#include "sim/error.h"
#include "u4_warp_support.h"

using namespace hwsim;
using namespace hwsim::warp;

static std::string error_of(const char* src, std::int64_t max_cycles = 0) {
  try {
    test::run(parse_kernel(src, "e.hwk"), 1, 64, {}, max_cycles);
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::workload);
    return e.what();
  }
  return "";
}

TEST_CASE("warp errors: out of bounds names kernel, instruction, lane, address") {
  std::string e = error_of(R"(.kernel oob
.param buf x f32 = 40:zeros
.reg u64 off, p
.reg f32 v
    mul.wide.u32 off, %tid, 4
    add.u64 p, x, off
    ld.global.f32 v, [p]
)");
  CHECK(e.find("kernel oob: out-of-bounds load at e.hwk:7 `ld.global.f32 v, [p]`: block 0, thread 40 (warp 1, lane 8), address 0x100000a0") == 0);
}

TEST_CASE("warp errors: barrier deadlock") {
  std::string e = error_of(R"(.kernel dl
.reg pred p
    setp.ge.u32 p, %tid, 32
    @p exit
    bar.sync
)");
  CHECK(e.find("barrier deadlock") != std::string::npos);
  std::string d = error_of(R"(.kernel div
.reg pred p
    setp.ge.u32 p, %laneid, 16
    @p bra L
    bar.sync
L:
    exit
)");
  CHECK(d.find("bar.sync at e.hwk:5 reached by only some lanes") != std::string::npos);
}

TEST_CASE("warp errors: runaway loop stops at max cycles") {
  std::string e = error_of(R"(.kernel spin
L:
    bra L
)", 5000);
  CHECK(e.find("kernel spin: stopped at --max-cycles 5000") == 0);
}
