// Accuracy gates for the unified-memory SoCs (issue 38, item 3), `gpu` chips as llama.cpp runs them, against
// published figures (data/public/edge_socs.jsonl, made by scripts/make_public_edge_soc_records.py; each record cites
// its source and software; docs/calibration.md, "Unified-memory SoCs"). Fitted (role "fit", never judged): on the
// Jetson AGX Orin, memory.hbm.efficiency on llama.cpp's Llama-2-70B 4-bit decode and gpu.launch.overhead on its 7B;
// on the Apple M2 Ultra GPU, gpu.tile.tensor_efficiency on llama.cpp's F16 pp512, and memory.hbm.efficiency and
// gpu.launch.overhead read off its Q8_0 and Q4_0 decodes (+26.8 %, +80.9 % after the fit). Judged here: the Orin's 13B decode,
// the M2 Ultra's Q8_0/Q4_0 prompts and the 30-core M2 Max's Q4_0 prompt; and, bounded where they are so they cannot
// grow unseen, the known misses (MLC on the Orin; every quantised decode on the Apple GPUs).
#include <doctest/doctest.h>

#include "tests/fixtures/validate_gate.h"

using namespace hwsim::test;

namespace {
void gate(const std::string& chip, const std::string& filters, double max_mape) {
  check_gate("data/public/edge_socs.jsonl", "--where chip=" + chip + " --where role=judge " + filters, max_mape);
}
}  // namespace

// Llama-2-13B 4-bit, 13.3 tok/s: today +0.2 % (the 7B and 70B fitted the two parameters).
TEST_CASE("validation: llama.cpp decode on the Jetson AGX Orin (Llama-2-13B 4-bit), judged, MAPE <= 3 %") {
  gate("jetson_agx_orin", "--where src=llamacpp --kind decode_step", 3);
}

// Q8_0 -7.8 %, Q4_0 -6.1 % (the F16 prompt fitted gpu.tile.tensor_efficiency): today 7.0 %.
TEST_CASE("validation: llama.cpp prompts on the M2 Ultra GPU (Q8_0, Q4_0 pp512), judged, MAPE <= 9 %") {
  gate("apple_m2_ultra_gpu", "--kind prefill_step", 9);
}

// The 30-core M2 Max (--set gpu.sm_count=30), Q4_0 pp512 of PR 2959 (a week older than the M2 Ultra's kernels,
// which gained 12 % in PR 3084): today -13.3 %.
TEST_CASE("validation: llama.cpp prompt on the 30-core M2 Max GPU (Q4_0 pp512), judged, MAPE <= 15 %") {
  gate("apple_m2_max_gpu", "--kind prefill_step", 15);
}

// Known misses, bounded. MLC's fused kernels stream Llama-2-7B at ~85 % of 204.8 GB/s with a fraction of llama.cpp's
// per-token fixed cost, 47 tok/s; the chip file describes llama.cpp (0.675, 19.8 us): +109 % today.
TEST_CASE("validation: MLC's decode on the Jetson AGX Orin, a known miss (another runtime), MAPE <= 115 %") {
  gate("jetson_agx_orin", "--where src=mlc --kind decode_step", 115);
}

// The gpu kind's weight-only kernels (tinygemm, Marlin) pad a batch of one token to a 16-row MMA; Apple's ALUs pay
// for the padding and llama.cpp's (and MLC's) Metal mat-vec kernels do not (docs/architecture.md, "Deviations").
// Judged today on the M2 Ultra: MLC 7B +81.9 %, MLC 13B +89.0 % (MAPE 85.5 %; llama.cpp's two decodes fitted the
// Apple files' memory efficiency and launch overhead and miss by +26.8 and +80.9 %); on the 30-core M2 Max,
// llama.cpp Q4_0 +152.9 %.
TEST_CASE("validation: quantised decodes on the Apple GPUs, a known miss (m16 padding), bounded") {
  gate("apple_m2_ultra_gpu", "--kind decode_step", 90);
  gate("apple_m2_max_gpu", "--kind decode_step", 155);
}
