// Accuracy gates for Blackwell and block-scaled fp8 GEMMs (issue 35) against published figures
// (data/public/blackwell.jsonl, made by scripts/make_public_blackwell_records.py, each record
// citing its source and software) and this project's own H200 run
// (data/measurements/h200_blockscaled.jsonl, scripts/measure/blockscaled_fp8.py). Only records
// with role=judge count: the few that fitted a parameter (gpu.sm.mma_sync_fraction and
// gpu.tile.attention_efficiency of b200, gpu.tile.block_scale_overlap) are listed in
// data/measurements/fitted.toml and left out here. Thresholds: the 15 % for kernels where
// reached; docs/calibration.md ("Blackwell (issue 35)") says what each gate judges and why a
// looser one stays where it does. The contrasts below check the mechanisms themselves.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/json_run.h"
#include "tests/fixtures/test_support.h"
#include "tests/fixtures/validate_gate.h"

using namespace hwsim::test;

namespace {
void gate(const std::string& file, const std::string& chip, const std::string& filters, double max_mape) {
  check_gate(file, "--chip " + chip + " --where role=judge " + filters, max_mape);
}
const std::string kPublic = "data/public/blackwell.jsonl";

double seconds(const std::string& chip, const std::string& workload, const std::string& name) {
  return run_hwsim_json("--chip " + chip + " -w " + workload, name + ".json")["result"]["seconds"].get<double>();
}
}  // namespace

TEST_CASE("validation: B200 FlashAttention-2 (mma.sync) forward, published, judged MAPE <= 15 %") {
  gate(kPublic, "b200", "--kind attention_backend --where backend=FLASH_ATTENTION", 15);
}

TEST_CASE("validation: B200 cuDNN attention forward (hdim 64), published, judged MAPE <= 15 %") {
  gate(kPublic, "b200", "--kind attention_backend --where backend=CUDNN_ATTENTION", 15);
}

TEST_CASE("validation: B200 GEMMs (bf16, NVFP4, MXFP8, fp8), published, judged MAPE <= 15 %") {
  gate(kPublic, "b200", "--kind gemm --where chip=b200", 15);
}

TEST_CASE("validation: block-scaled fp8 on H800 (DeepGEMM README), judged MAPE <= 15 %") {
  gate(kPublic, "h100", "--kind gemm --where src=DG", 15);
}

TEST_CASE("validation: row- and block-scaled fp8 on H100 at 500 W (FBGEMM), judged MAPE <= 15 %") {
  gate(kPublic, "h100", "--kind gemm --where src=FB2546 --set 'power.tdp=500 W'", 15);
}

TEST_CASE("validation: H200 bf16, fp8 per-tensor/row and 1x128/128x128 block-scaled GEMMs (own run), judged MAPE <= 15 %") {
  gate("data/measurements/h200_blockscaled.jsonl", "h200", "--kind gemm", 15);
}

// Published hdim 128, long sequences: FA2 ~354 TFLOP/s (tritonbench PR 171), cuDNN 9.13 ~1240 (the
// FA4 paper: FA4's 1613 is 1.3x cuDNN's): ~3.5x. On the H100 FA2 ~370 against cuDNN ~600 (FA3
// paper): ~1.6x.
TEST_CASE("mechanism: FlashAttention-2 on B200 is far slower than cuDNN (mma.sync vs tcgen05), as published (~3.5x)") {
  std::string shape = "attention:batch=8,heads=16,head_dim=128,q_len=4096,kv_len=4096,causal=false,dtype=bf16,impl=";
  double fa2 = seconds("b200", shape + "flash2", "fa2"), cudnn = seconds("b200", shape + "cudnn", "cudnn");
  CHECK(fa2 / cudnn > 2.5);
  CHECK(fa2 / cudnn < 4.5);
  // On the H100 the same kernels are far closer (FA2 ~370 vs cuDNN ~600 TFLOPS: FA3 paper, hdim 128).
  double h_fa2 = seconds("h100", shape + "flash2", "h_fa2"), h_cudnn = seconds("h100", shape + "cudnn", "h_cudnn");
  CHECK(h_fa2 / h_cudnn < fa2 / cudnn);
}

TEST_CASE("mechanism: block scales cost Hopper CUDA-core promotion; Blackwell applies MX scales in the tensor core") {
  std::string g = "gemm:M=8192,N=8192,K=8192,dtype=fp8";
  double h_plain = seconds("h100", g, "h_plain"), h_block = seconds("h100", g + ",scale=block", "h_block");
  double h_mx = seconds("h100", g + ",scale=mx", "h_mx");
  CHECK(h_block / h_plain > 1.05);  // promotion exposed (measured 1.06-1.3 on H200 and H100)
  CHECK(h_block / h_plain < 1.35);
  CHECK(h_mx / h_plain - 1 > 3 * (h_block / h_plain - 1));  // four times the promotions per K
  double b_plain = seconds("b200", g, "b_plain"), b_mx = seconds("b200", g + ",scale=mx", "b_mx");
  double b_block = seconds("b200", g + ",scale=block", "b_block");
  CHECK(b_mx / b_plain == doctest::Approx(1.0).epsilon(0.01));
  CHECK(b_block / b_plain > h_block / h_plain);  // twice the tensor rate against the same CUDA cores
}

TEST_CASE("block scales: one clear error for a dtype that carries its own or none") {
  CliRun r = run_hwsim("--chip b200 -w gemm:M=256,N=256,K=256,dtype=fp4,scale=block");
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("scale: block scales fp8 operands") != std::string::npos);
  CliRun t = run_hwsim("--chip h100 -w gemm:M=256,N=256,K=256,dtype=fp8,scale=blok");
  CHECK(t.exit_code != 0);
  CHECK(t.err.find("did you mean") != std::string::npos);
}
