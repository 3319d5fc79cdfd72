// Naive attention is PyTorch's math path kernel by kernel: the fp32 upcasts, the causal mask, the
// GQA repeat, two batched fp32 GEMMs around a four-kernel softmax; its score GEMM does the
// B·H·Sq·Skv·D multiply-adds of the dense (unmasked) product and writes the fp32 scores.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/gpu/gpu_chip.h"
#include "models/gpu/tile/naive_attention_lowering.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
AttentionOp shape(DType dtype, bool causal, std::int64_t kv_heads) {
  AttentionOp a;
  a.batch = 2, a.heads = 8, a.kv_heads = kv_heads, a.head_dim = 64, a.q_len = 256, a.kv_len = 256;
  a.causal = causal, a.dtype = a.kv_dtype = dtype, a.impl = AttentionImpl::naive;
  return a;
}

const Kernel* find(const std::vector<Kernel>& ks, const std::string& suffix) {
  for (const auto& k : ks)
    if (k.name.size() >= suffix.size() && k.name.compare(k.name.size() - suffix.size(), suffix.size(), suffix) == 0)
      return &k;
  return nullptr;
}
}  // namespace

TEST_CASE("naive attention: the math path's kernels, bf16 causal GQA versus fp32 MHA") {
  GpuChip chip = GpuChip::from_config(load_chip(chip_file("h100"), {}));
  auto bf16 = lower_naive_attention(shape(DType::bf16, true, 2), "attn", chip, std::int64_t(1) << 40, {});
  auto fp32 = lower_naive_attention(shape(DType::fp32, false, 8), "attn", chip, std::int64_t(1) << 40, {});
  // bf16: 3 upcasts, q scale, 5 mask kernels, 2 repeat_interleave, k scale, QKᵀ, mask add,
  // 4 softmax kernels, PV, the cast back = 20. fp32 MHA, no mask: q scale, k scale, QKᵀ, 4, PV = 8.
  CHECK(bf16.size() == 20);
  CHECK(fp32.size() == 8);
  for (const auto& k : bf16) CHECK(k.op_class == "attention");
  const Kernel* qk = find(bf16, ".qk_gemm");
  REQUIRE(qk != nullptr);
  // 2 FLOP per multiply-add over every (query, key) pair of every head: the mask does not skip any.
  CHECK(qk->flops == doctest::Approx(2.0 * 2 * 8 * 256 * 256 * 64));
  double scores_written = 0;
  for (const auto& c : qk->ctas)
    for (const auto& w : c.writes) scores_written += w.bytes;
  CHECK(scores_written == doctest::Approx(2.0 * 8 * 256 * 256 * 4));  // fp32 scores
  REQUIRE(find(bf16, ".softmax_where") != nullptr);
  REQUIRE(find(bf16, ".k_repeat_interleave") != nullptr);
  CHECK(find(fp32, ".q_to_float") == nullptr);
}

TEST_CASE("naive attention: scores that cannot fit the device are refused") {
  GpuChip chip = GpuChip::from_config(load_chip(chip_file("h100"), {}));
  AttentionOp a = shape(DType::bf16, true, 8);
  a.batch = 16, a.heads = 32, a.q_len = a.kv_len = 32768;  // 16·32·32768² fp32 scores = 2.2 TB
  CHECK_THROWS_WITH(lower_naive_attention(a, "attn", chip, std::int64_t(1) << 40, {}),
                    doctest::Contains("materialises the scores"));
}
