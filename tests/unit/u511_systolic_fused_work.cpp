// Elementwise work the XLA fusion pass folded into a GEMM (Op::fused) is charged on the vector
// unit beside the MXU epilogue, and its extra bytes are loaded and stored with the op's own.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/systolic/op_lowering.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("systolic fused work: a residual add fused into a down projection") {
  SystolicChip c = SystolicChip::from_config(load_chip(chip_file("tpu_v5e"), {}));
  GemmOp g;
  g.m = 512, g.n = 4096, g.k = 14336;
  Op plain{"L0.down_proj", "gemm", g};
  Op fused = plain;
  fused.fused.ops = {"L0.residual_add"};
  fused.fused.vector_flops = 512.0 * 4096;
  fused.fused.extra_bytes_read = 512.0 * 4096 * 2;
  OpLowering lowering(c);
  OpPlan a = lowering.lower(plain), b = lowering.lower(fused);
  const Phase &pa = a.phases.at(0), &pb = b.phases.at(0);
  double steps = double(pb.total_steps());
  CHECK(pb.vector_ops == doctest::Approx(pa.vector_ops + 512.0 * 4096));
  CHECK(pb.step.vpu_seconds * steps == doctest::Approx(pa.step.vpu_seconds * steps + 512.0 * 4096 / c.vpu_rate()));
  CHECK(pb.step.load_bytes * steps == doctest::Approx(pa.step.load_bytes * steps + 512.0 * 4096 * 2));
  CHECK(pb.mxu_macs == pa.mxu_macs);
  CHECK(b.flops == doctest::Approx(a.flops + 512.0 * 4096));
}
