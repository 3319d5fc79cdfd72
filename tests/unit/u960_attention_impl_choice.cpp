// Which attention implementation runs: PyTorch SDPA's priority order per chip (cuDNN first on
// Hopper, FlashAttention-2 first elsewhere), its dtype and shape filters, and clear errors for an
// implementation asked for by name that cannot run the op.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/gpu/gpu_chip.h"
#include "models/gpu/tile/attention_lowering.h"
#include "sim/error.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
GpuChip chip(const char* name) { return GpuChip::from_config(load_chip(chip_file(name), {})); }

AttentionOp op(DType dtype, std::int64_t q_len, std::int64_t kv_len, bool causal,
               AttentionImpl impl = AttentionImpl::automatic) {
  AttentionOp a;
  a.batch = 2, a.heads = 32, a.kv_heads = 8, a.head_dim = 128;
  a.q_len = q_len, a.kv_len = kv_len, a.causal = causal, a.dtype = a.kv_dtype = dtype, a.impl = impl;
  return a;
}

std::string refusal(const AttentionOp& a, const GpuChip& g) {
  try {
    choose_attention_impl(a, g);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("attention choice: SDPA's default per chip and dtype") {
  GpuChip h100 = chip("h100"), a100 = chip("a100");
  // Hopper with a recent cuDNN: cuDNN first; fp32 only the memory-efficient kernel takes.
  CHECK(choose_attention_impl(op(DType::bf16, 4096, 4096, true), h100).impl == AttentionImpl::cudnn);
  CHECK(choose_attention_impl(op(DType::bf16, 1, 8192, false), h100).impl == AttentionImpl::cudnn);
  // fp32: the memory-efficient kernel, which takes no GQA: grouped heads fall to the math path.
  AttentionOp mha = op(DType::fp32, 4096, 4096, true);
  mha.kv_heads = mha.heads;
  CHECK(choose_attention_impl(mha, h100).impl == AttentionImpl::mem_efficient);
  CHECK(choose_attention_impl(op(DType::fp32, 4096, 4096, true), h100).impl == AttentionImpl::naive);
  // Ampere: FlashAttention-2 first, but it refuses a causal mask with q_len != kv_len.
  CHECK(choose_attention_impl(op(DType::bf16, 4096, 4096, true), a100).impl == AttentionImpl::flash2);
  AttentionOp chunk = op(DType::bf16, 16, 512, true);
  chunk.kv_heads = chunk.heads;
  CHECK(choose_attention_impl(chunk, a100).impl == AttentionImpl::mem_efficient);
}

TEST_CASE("attention choice: an implementation asked for by name that cannot run is one clear error") {
  GpuChip h100 = chip("h100"), a100 = chip("a100"), mi300x = chip("mi300x");
  CHECK(choose_attention_impl(op(DType::bf16, 512, 512, false, AttentionImpl::naive), h100).impl ==
        AttentionImpl::naive);
  CHECK(contains(refusal(op(DType::fp32, 512, 512, false, AttentionImpl::flash2), h100), "fp16 and bf16"));
  CHECK(contains(refusal(op(DType::bf16, 512, 512, false, AttentionImpl::flash3), a100), "not available"));
  CHECK(contains(refusal(op(DType::bf16, 512, 512, false, AttentionImpl::cudnn), mi300x), "not available"));
  CHECK(contains(refusal(op(DType::bf16, 16, 512, true, AttentionImpl::flash2), h100), "q_len != kv_len"));
  CHECK(refusal(op(DType::bf16, 512, 512, false, AttentionImpl::flash3), h100).empty());
}
