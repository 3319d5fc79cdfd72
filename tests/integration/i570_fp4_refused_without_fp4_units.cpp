// fp4 on a chip without FP4 tensor cores is one clear line naming the chip and the key, exit 4,
// and no output file: an H100 (gpu.sm.flops_per_clock.fp4 = 0), a TPU v5e
// (systolic.mxu.macs_per_cell.fp4 = 0), and fp4 weights of a language model on an A100.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: fp4 on an H100 is one clear error naming the chip and the key") {
  auto json = scratch_dir() / "fp4.json";
  CliRun r = run_hwsim("--chip h100 -w gemm:M=4096,N=4096,K=4096,dtype=fp4 --json '" + json.string() + "'");
  CHECK(r.exit_code == 4);
  CHECK(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "H100 SXM5 80GB"));
  CHECK(contains(r.err, "gpu.sm.flops_per_clock.fp4 is 0"));
  CHECK(r.out.empty());
  CHECK_FALSE(std::filesystem::exists(json));
}

TEST_CASE("cli: fp6 and fp4 on a TPU and fp4 weights on an A100 are one clear error each") {
  CliRun tpu = run_hwsim("--chip tpu_v5e -w gemm:M=1024,N=1024,K=1024,dtype=fp6");
  CHECK(tpu.exit_code == 4);
  CHECK(lines_of(tpu.err).size() == 1);
  CHECK(contains(tpu.err, "systolic.mxu.macs_per_cell.fp6 is 0"));
  CliRun a100 = run_hwsim("--chip a100 -w decode_llama8b:weights=fp4 --quiet");
  CHECK(a100.exit_code == 4);
  CHECK(lines_of(a100.err).size() == 1);
  CHECK(contains(a100.err, "fp4 weights is not supported by A100 SXM4 80GB"));
}
