// Parse errors name file, line and column, and say what is wrong.
#include <doctest/doctest.h>

#include "models/gpu/warp/parser.h"
#include "sim/error.h"

using namespace hwsim;

static std::string error_of(const std::string& src) {
  try {
    warp::parse_kernel(src, "k.hwk");
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::workload);
    return e.what();
  }
  return "";
}

TEST_CASE("hwk: parse errors carry file:line:col") {
  CHECK(error_of(".kernel k\n.reg u32 a\n    add.u32 a, a, b\n") == "k.hwk:3:19: 'b' is neither a declared register nor an integer");
  CHECK(error_of(".kernel k\n.reg f32 x\n  shl.u32 x, x, 1\n").find("k.hwk:3:11: register '%x' is f32") == 0);
  CHECK(error_of(".kernel k\n  frob.u32 a\n").find("k.hwk:2:3: unknown instruction 'frob'") == 0);
  CHECK(error_of(".kernel k\n  bra NOWHERE\n").find("k.hwk:2:7: unknown label 'NOWHERE'") == 0);
  CHECK(error_of(".reg u32 a\n").find("k.hwk:1:1: missing `.kernel NAME`") == 0);
  CHECK(error_of(".kernel k\n.reg u32 tid\n").find("k.hwk:2:10: 'tid' is a special register") == 0);
  CHECK(error_of(".kernel k\n.reg u32 a\n  ld.global.v4.u64 {a,a,a,a}, [a]\n").find("at most 16 bytes") != std::string::npos);
}
