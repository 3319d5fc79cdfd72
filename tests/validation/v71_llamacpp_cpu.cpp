// Accuracy gates for the cpu kind against llama.cpp's published CPU-only figures
// (data/public/llamacpp_cpu.jsonl, made by scripts/make_public_llamacpp_cpu_records.py; each record cites
// its source and software; docs/calibration.md, "CPU (cpu) parameters"). Fitted (role "fit", never judged):
// per chip family, cpu.gemm.efficiency on one prompt record and cpu.gemv.efficiency on one decode record at
// 4 threads or fewer (Xeon w9-3475X, Graviton3E, M2 Max), and the Apple P-cluster's DRAM port on the M2
// Pro's F16 decode. Judged here: the same machines at more threads (compute-bound prefill scaling, decode
// turning from compute- to bandwidth-bound), the M2 Ultra (its decode held by four P-clusters' ports), and
// the M2 Pro's 2023 records (older kernels; prompts through Accelerate), a known partial miss.
#include <doctest/doctest.h>

#include "tests/fixtures/validate_gate.h"

using namespace hwsim::test;

namespace {
void gate_judged(const std::string& chip, double max_mape) {
  check_gate("data/public/llamacpp_cpu.jsonl", "--where chip=" + chip + " --where role=judge", max_mape);
}
}  // namespace

TEST_CASE("validation: llama.cpp on Sapphire Rapids (w9-3475X, 8 and 16 threads), judged, MAPE <= 20 %") {
  gate_judged("xeon_8480", 20);
}

TEST_CASE("validation: llama.cpp on Graviton3 (Q8_0 prompt at 8 and 16 threads), judged, MAPE <= 20 %") {
  gate_judged("graviton3", 20);
}

// Above the 20 % target, bounded where they are (validate judges each kind apart): 6 threads within 4 and
// 13 %; 8 threads (every P-core) 24 and 37 % too fast: the measured runs gain little from the last cores
// (PR 8672's own thread pool is 22 % faster at 8 threads), and the model has no OS or barrier contention.
// Today: prefill 14.0 %, decode 25.2 %.
TEST_CASE("validation: llama.cpp on the M2 Max CPU (Q4_0 at 6 and 8 threads), judged, MAPE <= 30 % (target 20)") {
  gate_judged("apple_m2_max_cpu", 30);
}

// Decode 5.1 % (held by four P-clusters' ports); the prompt on all 16 P-cores 27.3 % too fast (as above).
TEST_CASE("validation: llama.cpp on the M2 Ultra CPU (Mistral 7B Q8_0 decode and prompt), judged, MAPE <= 30 %") {
  gate_judged("apple_m2_ultra_cpu", 30);
}

// A known partial miss, bounded so it cannot grow unseen: llama.cpp of August 2023 ran macOS prompt batches
// through Accelerate's sgemm (weights dequantised to f32, Apple's AMX coprocessor), so the M2 Pro's F16 and
// Q4_0 prompts took the same time (the model runs F16 on NEON at half the int8 rate: +74 %), and its Q4_0
// decode kernels were slower than the July 2024 ones the Apple efficiencies are fitted on (-27 %). Today:
// prefill 42.7 % (-11.9 and +73.6), decode 27.4 %.
TEST_CASE("validation: the M2 Pro's 2023 records (older kernels, the Accelerate path), judged, MAPE <= 45 %") {
  gate_judged("apple_m2_pro_cpu", 45);
}
