// What-ifs on a TPU move the prediction the way the hardware would: a 256x256 array speeds up a
// compute-bound GEMM, more HBM bandwidth a memory-bound decode, a faster clock both's compute.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
double seconds(const std::string& args) {
  static int n = 0;
  auto json = scratch_dir() / ("whatif" + std::to_string(++n) + ".json");
  CliRun r = run_hwsim(args + " --quiet --json '" + json.string() + "'");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return nlohmann::json::parse(read_text(json))["result"]["seconds"].get<double>();
}
}  // namespace

TEST_CASE("cli: TPU v5e what-ifs") {
  const std::string gemm = "--chip tpu_v5e -w gemm:M=4096,N=4096,K=4096";
  double base = seconds(gemm);
  double big_array = seconds(gemm + " --set systolic.mxu.rows=256 --set systolic.mxu.cols=256");
  CHECK(big_array < 0.4 * base);   // 4x the cells: close to 4x faster while compute-bound
  CHECK(seconds(gemm + " --set systolic.clock=3GHz") < 0.6 * base);
  const std::string decode = "--chip tpu_v5e -w decode_llama8b";
  double d = seconds(decode);
  // Twice the HBM bandwidth: faster, but not twice (the MXUs shifting weights in, per-op costs).
  CHECK(seconds(decode + " --set memory.hbm.bandwidth=1638GB/s") < 0.75 * d);
  CHECK(seconds(decode + " --set memory.vmem.size=16MiB") >= d * 0.99);
  // A VMEM too small for large blocks: smaller blocks re-read operands from HBM and an 8192³ GEMM
  // turns memory-bound (4 MiB: ~1.4x, 1 MiB: ~4x the 128 MiB time).
  const std::string big = "--chip tpu_v5e -w gemm:M=8192,N=8192,K=8192";
  double roomy = seconds(big);
  CHECK(seconds(big + " --set memory.vmem.size=4MiB") > 1.2 * roomy);
  CHECK(seconds(big + " --set memory.vmem.size=1MiB") > 3 * roomy);
}
