// validate on a chip of another kind: records it can run are predicted; records of kinds it cannot
// model (kernel programs need a GPU) are skipped and counted; records it cannot run (a dtype it
// lacks) are counted with the first reason — never a failed run.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: validate GPU GEMM records on a TPU v5e predicts bf16 and counts fp16 as cannot run") {
  CliRun r = run_hwsim("validate tests/fixtures/validate/small_gemm.jsonl --chip tpu_v5e");
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK(contains(r.out, "gemm"));
  CHECK(contains(r.out, "cannot run on this chip (first: gemm: fp16 math is not supported by TPU v5e"));
}

TEST_CASE("cli: validate skips kernel-program records (they need a GPU) on a TPU, and runs them on a GPU") {
  CliRun tpu = run_hwsim("validate tests/fixtures/validate/gpu_only_kind.jsonl --chip tpu_v5e");
  CHECK(tpu.exit_code == 0);
  CHECK(contains(tpu.out, "bank_conflict"));
  CHECK(contains(tpu.out, "skipped (not modelled, or not on this kind of chip)"));
  CliRun gpu = run_hwsim("validate tests/fixtures/validate/gpu_only_kind.jsonl --chip h100");
  CHECK(gpu.exit_code == 0);
  CHECK_FALSE(contains(gpu.out, "skipped"));
}
