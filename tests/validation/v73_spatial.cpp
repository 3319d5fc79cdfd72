// Accuracy gates for the spatial kind against the public figures of Tenstorrent, Groq and Cerebras
// (data/public/spatial_steps.jsonl, made by scripts/make_public_spatial_records.py from
// data/public/spatial_chips.jsonl; each record cites its source and software; docs/calibration.md, "Spatial
// (spatial) parameters"). Fitted (role "fit", never judged): Wormhole's matrix efficiency (one bf16 GEMM) and
// GDDR6 efficiency (Llama-3.1-8B batch-1 decode on n150), Groq's per-op overhead (Llama-3.1-8B decode) and
// Cerebras' effective NoC hop (Llama-3.1-8B decode). Judged here, each just above today's MAPE (in the comments).
#include <doctest/doctest.h>

#include "tests/fixtures/validate_gate.h"

using namespace hwsim::test;

namespace {
void gate(const std::string& filters, double max_mape) {
  check_gate("data/public/spatial_steps.jsonl", filters + " --where role=judge", max_mape);
}
}  // namespace

// Today (judged MAPE): Llama-3.1-70B on four wafers 15.5 % (both -15 %: the 8B-fitted effective hop, over
// regions of cores twice as wide, is a little short).
TEST_CASE("validation: Cerebras WSE-3 decode (70B on four wafers), judged, MAPE <= 17 %") {
  gate("--where chip=cerebras_wse3 --kind decode_step", 17);
}

// Today 9.7 %: 70B on 576 chips within 6 % (Llama 3, 3.1), Llama 2 70B +16 % (Llama 3's 128k vocabulary
// stands in for its 32k), Llama 3 8B +17 % and Llama 2 7B +4 %.
TEST_CASE("validation: Groq LPU decode (8B on 38 chips, 70B on 576), judged, MAPE <= 11 %") {
  gate("--where chip=groq_lpu --kind decode_step", 11);
}

// Today 22.2 %: batch 32 within 16 %, 64K context +20 %, the accuracy mode (bfp8 MLP + bf16 attention run as
// int8 everywhere) +68 %: a known miss of the one-weight-dtype stand-in.
TEST_CASE("validation: Wormhole n150 decode, judged, MAPE <= 24 % (target 20)") {
  gate("--where chip=tt_wormhole_n150 --kind decode_step", 24);
}

// Today: n300 23.2 % (TP=2 within 6-35 %), T3K (8 chips) 41.1 % (8B 59-67 % too fast at 8-way tensor
// parallel: tt-metal's T3K decode does not scale as the all-reduce model does).
TEST_CASE("validation: Wormhole n300 and T3K decode, judged, MAPE <= 43 % (target 20)") {
  gate("--where chip=tt_wormhole_n300 --kind decode_step", 43);
}

// Today 34.5 %: judged with Wormhole's fits, too fast (-30 and -39 %): Blackhole's GDDR6 efficiency is not
// Wormhole's, or the rows predate software tuning ('under active development').
TEST_CASE("validation: Blackhole p150 decode, judged, MAPE <= 36 % (target 20)") {
  gate("--where chip=tt_blackhole_p150 --kind decode_step", 36);
}

// A known miss, bounded so it cannot grow unseen: the published TTFT of a 128-token prefill is 2-3x the
// modelled prefill step (host-side work and per-op dispatch outside a traced decode). Today: n150 62.5 %,
// n300 68.0 %, T3K 57.7 %, p150 67.5 %.
TEST_CASE("validation: Tenstorrent TTFT (a known miss), judged, MAPE <= 70 %") {
  gate("--where chip=tt_wormhole_n150 --kind prefill_step", 64);
  gate("--where chip=tt_wormhole_n300 --kind prefill_step", 70);
  gate("--where chip=tt_blackhole_p150 --kind prefill_step", 69);
}

// Today 15.9 %: bf16 and bfp8_b at LoFi, HiFi2 and HiFi4, 4096^3 to 16384^3, within 26 % (HiFi4 the worst:
// one efficiency fitted at HiFi2 for every fidelity).
TEST_CASE("validation: Wormhole n150 GEMMs (bf16 and bfp8_b at three fidelities), judged, MAPE <= 18 %") {
  gate("--where chip=tt_wormhole_n150 --kind gemm", 18);
}
