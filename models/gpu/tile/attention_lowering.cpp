#include "models/gpu/tile/attention_lowering.h"
#include "sim/arith.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace hwsim {
namespace {

constexpr std::int64_t kQueryTile = 128;   // FlashAttention query rows per CTA (FA3/cuDNN on Hopper, d=128)
constexpr std::int64_t kKeyTile = 128;     // keys per pipeline stage
constexpr std::int64_t kDecodeRows = 16;   // decode CTAs pad the group's queries to one 16-row MMA
constexpr std::int64_t kMinKeysPerSplit = 256;
constexpr int kStages = 2;
// Queries per head at or below which the decode form is used.
constexpr std::int64_t kDecodeMaxQueries = 16;


Kernel base_kernel(const AttentionOp& op, const std::string& name, const GpuChip& chip) {
  Kernel k;
  k.name = name;
  k.op_class = "attention";
  k.dtype = op.dtype;
  k.sm_flop_rate = chip.flop_rate_per_sm(op.dtype) * chip.attention_efficiency;
  k.prologue = chip.attention_overhead;
  k.peak_flop_rate = chip.peak_flop_rate(op.dtype);
  Op as_op{name, "attention", op};
  k.flops = op_flops(as_op);
  k.min_bytes = op_min_bytes(as_op);
  return k;
}

// Keys visible to queries [q_first, q_last] (0-based among the q_len new ones), as a key range.
std::pair<std::int64_t, std::int64_t> visible_keys(const AttentionOp& op, std::int64_t q_first, std::int64_t q_last) {
  std::int64_t offset = op.kv_len - op.q_len;  // position of query 0
  std::int64_t end = op.causal ? std::min(op.kv_len, offset + q_last + 1) : op.kv_len;
  std::int64_t begin = op.window > 0 ? std::max<std::int64_t>(0, offset + q_first - op.window + 1) : 0;
  return {begin, std::max(begin, end)};
}

std::vector<Kernel> flash_prefill(const AttentionOp& op, const std::string& name, const GpuChip& chip,
                                  std::int64_t object_base, TensorIds tensors) {
  Kernel k = base_kernel(op, name, chip);
  double e = bytes_per_element(op.dtype), ekv = bytes_per_element(op.kv_dtype);
  std::int64_t q_tiles = ceil_div(op.q_len, kQueryTile);
  check_kernel_size(name, double(op.batch) * double(op.heads) * double(q_tiles), "CTAs");
  k.ctas_per_sm = 1;
  k.bytes_in_flight = kStages * 2.0 * kKeyTile * op.head_dim * ekv;
  k.config = fmt::format("flash q{}xkv{}x{} {} CTAs ({} CTA/SM)", kQueryTile, kKeyTile, op.head_dim,
                         op.batch * op.heads * q_tiles, k.ctas_per_sm);
  std::int64_t group = std::max<std::int64_t>(1, op.heads / op.kv_heads);
  // Longest query tiles first (the libraries' causal load balancing).
  for (std::int64_t qt = q_tiles - 1; qt >= 0; --qt) {
    std::int64_t q_first = qt * kQueryTile, q_last = std::min(op.q_len, q_first + kQueryTile) - 1;
    auto [begin, end] = visible_keys(op, q_first, q_last);
    std::int64_t first_tile = begin / kKeyTile, last_tile = ceil_div(end, kKeyTile);
    double keys_computed = double(last_tile - first_tile) * kKeyTile;
    double keys_read = double(end - begin);
    double rows = double(q_last - q_first + 1);
    for (std::int64_t b = 0; b < op.batch; ++b) {
      for (std::int64_t h = 0; h < op.heads; ++h) {
        CtaWork c;
        c.flops = 4.0 * kQueryTile * keys_computed * op.head_dim;
        std::int64_t kv_object = object_base + b * op.kv_heads + h / group;
        double q_tile_bytes = rows * op.head_dim * e;
        double q_offset = (double(b * op.heads + h) * double(op.q_len) + double(q_first)) * op.head_dim * e;
        c.reads = tensor_blocks(tensors.input, q_offset, q_offset + q_tile_bytes);
        c.reads.push_back({kv_object, 2.0 * keys_read * op.head_dim * ekv});
        c.writes = tensor_blocks(tensors.output, q_offset, q_offset + q_tile_bytes);
        k.ctas.push_back(std::move(c));
      }
    }
  }
  return {std::move(k)};
}

std::vector<Kernel> flash_decode(const AttentionOp& op, const std::string& name, const GpuChip& chip,
                                 std::int64_t object_base, TensorIds tensors) {
  Kernel k = base_kernel(op, name, chip);
  double e = bytes_per_element(op.dtype), ekv = bytes_per_element(op.kv_dtype);
  std::int64_t group = std::max<std::int64_t>(1, op.heads / op.kv_heads);
  auto [begin, end] = visible_keys(op, 0, op.q_len - 1);
  std::int64_t keys = std::max<std::int64_t>(1, end - begin);
  std::int64_t units = op.batch * op.kv_heads;
  // Enough splits to give every SM two CTAs, but no split shorter than kMinKeysPerSplit keys.
  std::int64_t splits = std::clamp<std::int64_t>(ceil_div(2 * chip.sm_count, units), 1,
                                                 std::max<std::int64_t>(1, keys / kMinKeysPerSplit));
  std::int64_t per_split = ceil_div(keys, splits);
  check_kernel_size(name, double(units) * double(splits), "CTAs");
  double rows = double(std::max(kDecodeRows, ceil_div(group * op.q_len, kDecodeRows) * kDecodeRows));
  k.ctas_per_sm = 2;
  k.bytes_in_flight = kStages * 2.0 * kKeyTile * op.head_dim * ekv;
  k.config = fmt::format("flash-decode {} KV splits x {} (seq, kv head) = {} CTAs", splits, units, units * splits);
  for (std::int64_t u = 0; u < units; ++u) {
    for (std::int64_t s = 0; s < splits; ++s) {
      double chunk = double(std::min(per_split, keys - s * per_split));
      if (chunk <= 0) continue;
      CtaWork c;
      c.flops = 4.0 * rows * chunk * op.head_dim;
      double q_bytes = double(group * op.q_len) * op.head_dim * e;
      c.reads = tensor_blocks(tensors.input, double(u) * q_bytes, double(u + 1) * q_bytes);
      c.reads.push_back({-1, 2.0 * chunk * op.head_dim * ekv});
      // Partial outputs (fp32 plus the log-sum-exp) stay in L2 for the combine kernel.
      double partial = double(group * op.q_len) * (op.head_dim + 1) * 4.0;
      c.writes = splits > 1 ? std::vector<OperandWrite>{{object_base + (u * splits + s) + 1, partial}}
                            : tensor_blocks(tensors.output, double(u) * q_bytes, double(u + 1) * q_bytes);
      k.ctas.push_back(std::move(c));
    }
  }
  std::vector<Kernel> kernels{std::move(k)};
  if (splits > 1) {
    // Combine: rescale each split's partial output by its log-sum-exp and add.
    Kernel combine;
    combine.name = name + ".combine";
    combine.op_class = "attention";
    combine.dtype = DType::fp32;
    combine.sm_flop_rate = chip.flop_rate_per_sm(DType::fp32) * chip.simt_efficiency;
    combine.ctas_per_sm = 8;
    combine.bytes_in_flight = 4096;
    combine.prologue = 0;
    combine.peak_flop_rate = chip.peak_flop_rate(DType::fp32);
    double partials = double(splits * group * op.q_len) * (op.head_dim + 1) * 4.0;
    combine.config = fmt::format("combine {} splits", splits);
    double q_bytes = double(group * op.q_len) * op.head_dim * e;
    for (std::int64_t u = 0; u < units; ++u) {
      CtaWork c;
      c.flops = 3.0 * partials / 4.0;
      for (std::int64_t s = 0; s < splits; ++s)
        c.reads.push_back({object_base + (u * splits + s) + 1, partials / double(splits)});
      c.writes = tensor_blocks(tensors.output, double(u) * q_bytes, double(u + 1) * q_bytes);
      combine.ctas.push_back(std::move(c));
    }
    kernels.push_back(std::move(combine));
  }
  return kernels;
}

}  // namespace

std::vector<Kernel> lower_attention(const AttentionOp& op, const std::string& name, const GpuChip& chip,
                                    std::int64_t object_base, TensorIds tensors) {
  if (op.q_len <= kDecodeMaxQueries) return flash_decode(op, name, chip, object_base, tensors);
  return flash_prefill(op, name, chip, object_base, tensors);
}

}  // namespace hwsim
