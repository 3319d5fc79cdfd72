// Accuracy gate for GEMMs as a serving step runs them (issue 36): Llama-3-8B's five linear layers
// (qkv, o, gate_up, down, lm_head) at every token count M from 1 to 2048 (1-16, then steps of 32 to
// 512 and of 128 to 2048), bf16 F.linear on the lent H200 with the weights from HBM, cuBLAS's own
// kernel choice recorded per case (scripts/measure/gemm_m_sweep.py,
// data/measurements/h200_gemm_m_sweep.jsonl). Nothing was fitted on these records. MAPE 9.7 % when
// measured; the worst case is cuBLAS's own misstep at M = 448 on gate_up (a 512x64 tile, 2x the time
// of M = 416 or 480: 285 us measured, 182 predicted), which no tile-selection mechanism of the model
// reproduces.
#include <doctest/doctest.h>

#include "tests/fixtures/validate_gate.h"

using namespace hwsim::test;

TEST_CASE("validation: H200 Llama-3-8B projections over M = 1..2048 (cuBLAS's choice per M), MAPE <= 10.5 %") {
  measurement_gate("h200_gemm_m_sweep.jsonl", "h200", "gemm", "", 10.5);
}
