// A learner's first project on an RTX 4090 (docs/gpus.md): the predictions must land in the ranges
// public RTX 4090 figures give. Sanity ranges, not fits (nothing was fitted on them):
// - a large device copy reaches ~900 GB/s of the 1008 GB/s GDDR6X: 850-950 GB/s;
// - cuBLAS FP16 with FP32 accumulate reaches ~150-160 of 165.2 TFLOPS: 140-165 accepted;
// - FP16 accumulate is about twice as fast (330.3 TFLOPS peak), FP32 on CUDA cores far slower;
// - a naive one-thread-per-element matmul reaches a few % of the 82.6 TFLOPS FP32 peak.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/json_run.h"

using namespace hwsim::test;

namespace {
nlohmann::json run_json(const std::string& args, const std::string& name) {
  return run_hwsim_json("--chip rtx4090 " + args, name + ".json")["result"];
}
double tflops(const nlohmann::json& r) { return r["achieved_flop_rate"].get<double>() / 1e12; }
}  // namespace

TEST_CASE("learner's RTX 4090: copy bandwidth of a 1 GiB fp32 array") {
  auto r = run_json("-w elementwise:op=copy,T=1,D=268435456,dtype=fp32", "copy");
  double gbs = r["bandwidth"]["hbm"].get<double>() / 1e9;
  CHECK(gbs > 850);
  CHECK(gbs < 950);
}

TEST_CASE("learner's RTX 4090: FP16 vs FP32 matmul, FP32 vs FP16 accumulate (8192^3)") {
  double acc32 = tflops(run_json("-w gemm:M=8192,N=8192,K=8192,dtype=fp16", "acc32"));
  double acc16 = tflops(run_json("-w gemm:M=8192,N=8192,K=8192,dtype=fp16,acc=fp16", "acc16"));
  double fp32 = tflops(run_json("-w gemm:M=8192,N=8192,K=8192,dtype=fp32", "fp32"));
  CHECK(acc32 > 140);
  CHECK(acc32 < 165.2);
  CHECK(acc16 / acc32 == doctest::Approx(2.0).epsilon(0.05));
  CHECK(fp32 < 82.6);
  CHECK(fp32 < acc32 / 2);
}

TEST_CASE("learner's RTX 4090: a naive matmul reaches a few % of the FP32 peak") {
  auto json = scratch_dir() / "naive.json";
  CliRun r = run_hwsim("--chip rtx4090 --set gpu.core.model=warp --kernel workloads/kernels/matmul_naive.hwk "
                       "--grid 1024 --block 256 --arg n=512 --sample-sms 1 --quiet --json '" + json.string() + "'");
  REQUIRE(r.exit_code == 0);
  double seconds = nlohmann::json::parse(read_text(json))["result"]["seconds"].get<double>();
  double fraction = 2.0 * 512 * 512 * 512 / seconds / 82.6e12;
  CHECK(fraction > 0.005);
  CHECK(fraction < 0.05);
}
