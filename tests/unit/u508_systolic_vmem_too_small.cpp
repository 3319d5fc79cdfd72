// VMEM smaller than one double-buffered tile: the op cannot be lowered, and the error is one
// line naming the op, the tile's footprint and memory.vmem.size.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/systolic/op_lowering.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("systolic VMEM: a 64 KiB VMEM cannot hold a double-buffered 128x128 tile") {
  SystolicChip c = SystolicChip::from_config(load_chip(chip_file("tpu_v5e"), {"memory.vmem.size=64KiB"}));
  GemmOp g;
  g.m = g.n = g.k = 4096;
  OpLowering lowering(c);
  try {
    lowering.lower(Op{"gemm", "gemm", g});
    FAIL("lowered");
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::workload);
    std::string line = e.what();
    CHECK(contains(line, "gemm: the smallest double-buffered tile needs"));
    CHECK(contains(line, "memory.vmem.size of TPU v5e is 64 KiB"));
  }
}

TEST_CASE("systolic VMEM: a smaller VMEM chooses smaller blocks and reads more from HBM") {
  GemmOp g;
  g.m = g.n = g.k = 8192;
  auto traffic = [&](const char* vmem) {
    SystolicChip c = SystolicChip::from_config(load_chip(chip_file("tpu_v5e"), {std::string("memory.vmem.size=") + vmem}));
    OpPlan p = OpLowering(c).lower(Op{"gemm", "gemm", g});
    return p.phases[0].step.load_bytes * double(p.phases[0].total_steps());
  };
  CHECK(traffic("1MiB") > 2 * traffic("128MiB"));
}
