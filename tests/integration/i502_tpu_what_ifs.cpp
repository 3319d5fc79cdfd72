// What-ifs on a TPU move the prediction the way the hardware would: a 256x256 array speeds up a
// compute-bound GEMM, more HBM bandwidth a memory-bound decode, a faster clock both's compute.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
nlohmann::json result(const std::string& args) {
  static int n = 0;
  auto json = scratch_dir() / ("whatif" + std::to_string(++n) + ".json");
  CliRun r = run_hwsim(args + " --quiet --json '" + json.string() + "'");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return nlohmann::json::parse(read_text(json))["result"];
}
double seconds(const std::string& args) { return result(args)["seconds"].get<double>(); }
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
  // A VMEM too small for large blocks: an 8192³ bf16 GEMM's blocks hold bm·bn ≤ 1 MiB / 8 output
  // elements (f32 accumulator + double-buffered bf16 output, 8 B each), so its HBM reads
  // A·N/bn + W·M/bm are at least 2·128 MiB·8192/√(2^17) ≈ 5.8 GiB (AM-GM), and the run takes at
  // least that over the HBM bandwidth: slower than with 128 MiB.
  const std::string big = "--chip tpu_v5e -w gemm:M=8192,N=8192,K=8192";
  double roomy = seconds(big);
  nlohmann::json small = result(big + " --set memory.vmem.size=1MiB");
  double min_reads = 2 * 128.0 * 1024 * 1024 * 8192 / std::sqrt(131072.0);
  CHECK(small["bytes"]["hbm"].get<double>() > min_reads);
  CHECK(small["seconds"].get<double>() > min_reads / 819e9);
  CHECK(small["seconds"].get<double>() > roomy);
  CHECK(seconds(big + " --set memory.vmem.size=4MiB") > roomy);
}
