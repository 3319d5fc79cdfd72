// Attention without a custom kernel (materialized: QKᵀ scores written to HBM, a softmax pass,
// then P·V) versus a flash-style fused kernel (scores stay in VMEM, masked blocks skipped).
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/systolic/attention_lowering.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
double hbm_bytes(const std::vector<Phase>& phases) {
  double b = 0;
  for (const auto& p : phases) b += double(p.total_steps()) * (p.step.load_bytes + p.step.store_bytes);
  return b;
}
}  // namespace

TEST_CASE("systolic attention: materialized prefill moves the scores through HBM, fused does not") {
  AttentionOp a;
  a.batch = 1, a.heads = 32, a.kv_heads = 8, a.head_dim = 128, a.q_len = 2048, a.kv_len = 2048;
  SystolicChip m = SystolicChip::from_config(load_chip(chip_file("tpu_v5e"), {}));
  SystolicChip f = SystolicChip::from_config(load_chip(chip_file("tpu_v5e"), {"systolic.attention=fused"}));
  auto materialized = attention_phases(a, "attn", m);
  auto fused = attention_phases(a, "attn", f);
  REQUIRE(materialized.size() == 3);
  CHECK(materialized[0].name == "qk");
  CHECK(materialized[1].name == "softmax");
  CHECK(materialized[2].name == "pv");
  REQUIRE(fused.size() == 1);
  double scores = 32.0 * 2048 * 2048 * 2;  // bf16, every pair (XLA computes the masked ones too)
  // The scores are written by QKᵀ, read and written by the softmax pass, read by P·V.
  CHECK(hbm_bytes(materialized) > 4 * scores);
  CHECK(hbm_bytes(fused) < scores);
  // The flash kernel skips blocks above the causal diagonal: about half the MXU work.
  double all_macs = materialized[0].mxu_macs + materialized[2].mxu_macs;
  CHECK(fused[0].mxu_macs < 0.6 * all_macs);
  CHECK(fused[0].mxu_macs > 0.4 * all_macs);
}
