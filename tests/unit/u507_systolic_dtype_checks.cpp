// A dtype the chip's MXUs lack is refused with one line naming the op, the dtype, the chip and
// the key; narrower weights (int4, int8 under bf16 activations) are widened on the vector unit.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/systolic/op_lowering.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
SystolicChip chip(const char* name) { return SystolicChip::from_config(load_chip(chip_file(name), {})); }

Op gemm(DType a, DType b) {
  GemmOp g;
  g.m = 256, g.n = 1024, g.k = 1024, g.a = a, g.b = b, g.out = DType::bf16;
  return Op{"L0.up_proj", "gemm", g};
}
}  // namespace

TEST_CASE("systolic dtypes: fp8 math on TPU v5e (macs_per_cell.fp8 = 0) is a workload error") {
  SystolicChip v5e = chip("tpu_v5e");
  try {
    check_dtypes(gemm(DType::fp8, DType::fp8), v5e);
    FAIL("fp8 accepted");
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::workload);
    std::string line = e.what();
    CHECK(contains(line, "L0.up_proj"));
    CHECK(contains(line, "fp8"));
    CHECK(contains(line, "TPU v5e"));
    CHECK(contains(line, "systolic.mxu.macs_per_cell.fp8"));
    CHECK(line.find('\n') == std::string::npos);
  }
  CHECK_NOTHROW(check_dtypes(gemm(DType::fp8, DType::fp8), chip("tpu_v6e")));
  CHECK_THROWS_AS(check_dtypes(gemm(DType::fp16, DType::fp16), v5e), UserError);
}

TEST_CASE("systolic dtypes: int4 weights are dequantised on the vector unit") {
  SystolicChip v5e = chip("tpu_v5e");
  OpLowering lowering(v5e);
  OpPlan same = lowering.lower(gemm(DType::bf16, DType::bf16));
  OpPlan int4 = lowering.lower(gemm(DType::bf16, DType::int4));
  CHECK(int4.dtype == "bf16");
  REQUIRE(int4.phases.size() == 1);
  // Same MXU work, more vector work (v5e.dequant_ops per weight element at least once), fewer bytes.
  CHECK(int4.phases[0].mxu_macs == same.phases[0].mxu_macs);
  CHECK(int4.phases[0].vector_ops >= same.phases[0].vector_ops + 1024.0 * 1024 * v5e.dequant_ops);
  CHECK(int4.phases[0].step.load_bytes * int4.phases[0].total_steps() <
        same.phases[0].step.load_bytes * same.phases[0].total_steps());
}
