#include "models/gpu/tile/flash_attention_lowering.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "sim/arith.h"

namespace hwsim {
namespace {

constexpr int kStages = 2;                     // K/V tiles in flight per CTA (double buffering)
// cuDNN (the fitted default on Hopper): q128×kv128 prefill tiles; at ≤ 16 queries the split-KV
// decode kernel with 16-row MMAs, no split shorter than 256 keys, two CTAs per SM.
constexpr std::int64_t kCudnnTile = 128;
constexpr std::int64_t kCudnnDecodeMaxQueries = 16;
constexpr std::int64_t kCudnnDecodeRows = 16;
constexpr std::int64_t kCudnnMinKeysPerSplit = 256;
// FlashAttention-2 (flash_fwd_launch_template.h, hdim 128 on sm80/sm90: Flash_fwd_kernel_traits<128,
// 128, 64, 4 warps>; split kernel kBlockM 64, kBlockN 128; set_params_splitkv: 2 CTAs per SM,
// at most 128 splits).
constexpr std::int64_t kFa2QueryTile = 128, kFa2KeyTile = 64;
constexpr std::int64_t kSplitRows = 64, kSplitKeyTile = 128, kMaxSplits = 128;
// FlashAttention-3 (tile_size_fwd_sm90, hdim 128 bf16): 128 × 176, 128 × 128 when causal.
constexpr std::int64_t kFa3QueryTile = 128, kFa3KeyTile = 176, kFa3CausalKeyTile = 128;
// CUTLASS FMHA (cutlassF_bf16_aligned_64x128_rf_sm80, cutlassF_f32_aligned_32x128_rf_sm80).
constexpr std::int64_t kMemEffQueryTile = 64, kMemEffQueryTileFp32 = 32, kMemEffKeyTile = 128;
// 3xTF32: CUTLASS's OpMultiplyAddFastF32 runs three TF32 MMAs per fp32 product.
constexpr double kFastF32Mmas = 3;

struct Plan {
  std::string label;        // what the config line says
  bool packed = false;      // a CTA's query rows are the KV head's group × q_len (GQA packing)
  std::int64_t m_tile = 128;// query rows per CTA (the MMA pads a shorter tile)
  std::int64_t kv_tile = 128;
  std::int64_t splits = 1;  // > 1: split-KV partial results and a combine kernel
  bool split_form = false;  // the split-KV kernel (decode-shaped), even with one split
  int ctas_per_sm = 1;
  double rate = 0;          // FLOP/s one SM sustains in the main loop
};

std::int64_t group_of(const AttentionOp& op) { return std::max<std::int64_t>(1, op.heads / op.kv_heads); }

// Keys visible to queries [q_first, q_last] (0-based among the q_len new ones), as a key range.
std::pair<std::int64_t, std::int64_t> visible_keys(const AttentionOp& op, std::int64_t q_first, std::int64_t q_last) {
  std::int64_t offset = op.kv_len - op.q_len;  // position of query 0
  std::int64_t end = op.causal ? std::min(op.kv_len, offset + q_last + 1) : op.kv_len;
  std::int64_t begin = op.window > 0 ? std::max<std::int64_t>(0, offset + q_first - op.window + 1) : 0;
  return {begin, std::max(begin, end)};
}

std::int64_t all_keys(const AttentionOp& op) {
  auto [begin, end] = visible_keys(op, 0, op.q_len - 1);
  return std::max<std::int64_t>(1, end - begin);
}

// The main loop's SM FLOP rate: the kernel's efficiency times the slower of its MMA path and its
// exponentials (one per score, 4·head_dim FLOPs per score, on the SFUs: gpu.sm.exp_per_clock).
double path_rate(const AttentionOp& op, AttentionImpl impl, const GpuChip& chip) {
  const AttentionHabits& h = chip.attention_library;
  double sync = chip.paths.mma_sync_fraction;
  double exp_bound = 4.0 * double(op.head_dim) * chip.paths.exp_per_clock * chip.clock_hz;
  auto bound = [&](double mma_rate, double efficiency) { return std::min(mma_rate, exp_bound) * efficiency; };
  switch (impl) {
    case AttentionImpl::flash2: return bound(chip.flop_rate_per_sm(op.dtype) * sync, h.flash2_efficiency);
    case AttentionImpl::flash3: return bound(chip.flop_rate_per_sm(op.dtype), h.flash3_efficiency);
    case AttentionImpl::mem_efficient:
      if (op.dtype == DType::fp32)
        return bound(chip.flop_rate_per_sm(DType::tf32) / kFastF32Mmas * sync, h.mem_efficient_fp32_efficiency);
      return bound(chip.flop_rate_per_sm(op.dtype) * sync, h.mem_efficient_efficiency);
    default: return bound(chip.flop_rate_per_sm(op.dtype), chip.attention_efficiency);
  }
}

// FlashAttention-2/3: GQA heads packed as query rows at one query; split-KV by the heuristic.
Plan flash_plan(const AttentionOp& op, AttentionImpl impl, const GpuChip& chip) {
  Plan p;
  bool fa3 = impl == AttentionImpl::flash3;
  p.packed = op.q_len == 1 && group_of(op) > 1;
  std::int64_t rows = p.packed ? group_of(op) : op.q_len, heads = p.packed ? op.kv_heads : op.heads;
  std::int64_t slots = fa3 ? chip.sm_count : 2 * std::int64_t(chip.sm_count);
  p.splits = flash_num_splits(op.batch * heads * ceil_div(rows, kSplitRows), slots, ceil_div(all_keys(op), kSplitKeyTile),
                              kMaxSplits);
  p.rate = path_rate(op, impl, chip);
  p.label = fa3 ? "flash3" : "flash2";
  if (p.splits > 1) {
    p.split_form = true, p.m_tile = kSplitRows, p.kv_tile = kSplitKeyTile, p.ctas_per_sm = 2;
    return p;
  }
  p.m_tile = fa3 ? kFa3QueryTile : kFa2QueryTile;
  p.kv_tile = fa3 ? (op.causal ? kFa3CausalKeyTile : kFa3KeyTile) : kFa2KeyTile;
  p.ctas_per_sm = fa3 ? 1 : 2;
  return p;
}

Plan plan_for(const AttentionOp& op, AttentionImpl impl, const GpuChip& chip) {
  if (impl == AttentionImpl::flash2 || impl == AttentionImpl::flash3) return flash_plan(op, impl, chip);
  Plan p;
  p.rate = path_rate(op, impl, chip);
  if (impl == AttentionImpl::mem_efficient) {
    p.label = "mem_efficient";
    p.m_tile = op.dtype == DType::fp32 ? kMemEffQueryTileFp32 : kMemEffQueryTile;
    p.kv_tile = kMemEffKeyTile, p.ctas_per_sm = 2;
    return p;
  }
  p.label = "cudnn";
  if (op.q_len > kCudnnDecodeMaxQueries) return p;  // q128 × kv128, one CTA per SM
  p.packed = true, p.split_form = true, p.ctas_per_sm = 2, p.kv_tile = kCudnnTile;
  p.m_tile = std::max(kCudnnDecodeRows, round_up(group_of(op) * op.q_len, kCudnnDecodeRows));
  std::int64_t units = op.batch * op.kv_heads;
  // Enough splits to give every SM two CTAs, but no split shorter than 256 keys.
  p.splits = std::clamp<std::int64_t>(ceil_div(2 * chip.sm_count, units), 1,
                                      std::max<std::int64_t>(1, all_keys(op) / kCudnnMinKeysPerSplit));
  return p;
}

Kernel base_kernel(const AttentionOp& op, const std::string& name, const GpuChip& chip, const Plan& plan) {
  Kernel k;
  k.name = name;
  k.op_class = "attention";
  k.dtype = op.dtype;
  k.sm_flop_rate = plan.rate;
  k.prologue = chip.attention_overhead;
  k.peak_flop_rate = chip.peak_flop_rate(op.dtype);
  Op as_op{name, "attention", op};
  k.flops = op_flops(as_op);
  k.min_bytes = op_min_bytes(as_op);
  k.ctas_per_sm = plan.ctas_per_sm;
  k.bytes_in_flight = kStages * 2.0 * double(plan.kv_tile) * double(op.head_dim) * bytes_per_element(op.kv_dtype);
  return k;
}

// Element sizes and the query rows a kernel tiles: packed (GQA) kernels give each KV head its
// group's queries as rows, unpacked ones a row per query of each head.
struct QueryRows {
  double e, ekv;  // bytes per element of Q/O and of K/V
  std::int64_t group, rows_total, heads;
};
QueryRows query_rows(const AttentionOp& op, const Plan& plan) {
  std::int64_t group = group_of(op);
  return {bytes_per_element(op.dtype), bytes_per_element(op.kv_dtype), group,
          plan.packed ? group * op.q_len : op.q_len, plan.packed ? op.kv_heads : op.heads};
}

// One CTA per (sequence, head, query tile), the query tiles of one head consecutive (FA2's grid
// (m_blocks, batch, heads) puts them in the fastest dimension), so the CTAs running together
// share their head's K and V in L2; within a head the longest (causal) tiles first. Each walks its
// visible KV tiles. Packed: the heads are KV heads, the rows their groups' queries (one query).
Kernel tiled(const AttentionOp& op, const std::string& name, const GpuChip& chip, const Plan& plan,
             std::int64_t object_base, TensorIds tensors) {
  Kernel k = base_kernel(op, name, chip, plan);
  const QueryRows q = query_rows(op, plan);
  const double e = q.e, ekv = q.ekv;
  const std::int64_t group = q.group, rows_total = q.rows_total, heads = q.heads;
  std::int64_t q_tiles = ceil_div(rows_total, plan.m_tile);
  check_kernel_size(name, double(op.batch) * double(heads) * double(q_tiles), "CTAs");
  k.config = fmt::format("{} flash q{}xkv{}x{}{} {} CTAs ({} CTA/SM)", plan.label, plan.m_tile, plan.kv_tile,
                         op.head_dim, plan.packed ? " GQA-packed" : "", op.batch * heads * q_tiles, k.ctas_per_sm);
  for (std::int64_t b = 0; b < op.batch; ++b) {
    for (std::int64_t h = 0; h < heads; ++h) {
      for (std::int64_t qt = q_tiles - 1; qt >= 0; --qt) {
        std::int64_t r_first = qt * plan.m_tile, r_last = std::min(rows_total, r_first + plan.m_tile) - 1;
        auto [begin, end] = plan.packed ? visible_keys(op, 0, op.q_len - 1) : visible_keys(op, r_first, r_last);
        std::int64_t first_tile = begin / plan.kv_tile, last_tile = ceil_div(end, plan.kv_tile);
        double keys_computed = double(last_tile - first_tile) * double(plan.kv_tile);
        double keys_read = double(end - begin);
        double rows = double(r_last - r_first + 1);
        std::int64_t kv_object = object_base + b * op.kv_heads + (plan.packed ? h : h / group);
        double q_tile_bytes = rows * double(op.head_dim) * e;
        double q_offset = (double(b * heads + h) * double(rows_total) + double(r_first)) * double(op.head_dim) * e;
        k.ctas.open(4.0 * double(plan.m_tile) * keys_computed * double(op.head_dim));
        k.ctas.read_blocks(tensors.input, q_offset, q_offset + q_tile_bytes);
        k.ctas.read({kv_object, 2.0 * keys_read * double(op.head_dim) * ekv});
        k.ctas.write_blocks(tensors.output, q_offset, q_offset + q_tile_bytes);
      }
    }
  }
  return k;
}

// Rescales each split's partial output by its log-sum-exp and adds them (one CTA per unit).
Kernel combine_kernel(const AttentionOp& op, const std::string& name, const GpuChip& chip, std::int64_t units,
                      std::int64_t splits, double rows, std::int64_t object_base, TensorIds tensors) {
  Kernel combine;
  combine.name = name + ".combine";
  combine.op_class = "attention";
  combine.dtype = DType::fp32;
  combine.sm_flop_rate = chip.flop_rate_per_sm(DType::fp32) * chip.simt_efficiency;
  combine.ctas_per_sm = 8;
  combine.bytes_in_flight = 4096;
  combine.prologue = 0;
  combine.peak_flop_rate = chip.peak_flop_rate(DType::fp32);
  double partials = double(splits) * rows * double(op.head_dim + 1) * 4.0;
  double out_bytes = rows * double(op.head_dim) * bytes_per_element(op.dtype);
  combine.config = fmt::format("combine {} splits", splits);
  for (std::int64_t u = 0; u < units; ++u) {
    combine.ctas.open(3.0 * partials / 4.0);
    for (std::int64_t s = 0; s < splits; ++s)
      combine.ctas.read({object_base + (u * splits + s) + 1, partials / double(splits)});
    combine.ctas.write_blocks(tensors.output, double(u) * out_bytes, double(u + 1) * out_bytes);
  }
  return combine;
}

// Split-KV (decode-shaped) kernel: one CTA per (sequence, head unit, query block, KV split); K and V
// stream from memory once per split; partial results (fp32 plus the log-sum-exp) go to L2 for the
// combine kernel.
std::vector<Kernel> split_kv(const AttentionOp& op, const std::string& name, const GpuChip& chip, const Plan& plan,
                             std::int64_t object_base, TensorIds tensors) {
  Kernel k = base_kernel(op, name, chip, plan);
  const QueryRows q = query_rows(op, plan);
  const double e = q.e, ekv = q.ekv;
  const std::int64_t rows_total = q.rows_total, heads = q.heads;
  std::int64_t blocks = ceil_div(rows_total, plan.m_tile), units = op.batch * heads * blocks;
  check_kernel_size(name, double(units) * double(plan.splits), "CTAs");
  k.config = fmt::format("{} flash-decode {} KV splits x {} (seq, {}head{}) = {} CTAs", plan.label, plan.splits, units,
                         plan.packed ? "kv " : "", blocks > 1 ? ", query block" : "", units * plan.splits);
  for (std::int64_t u = 0; u < units; ++u) {
    std::int64_t block = u % blocks;
    std::int64_t r_first = block * plan.m_tile, r_last = std::min(rows_total, r_first + plan.m_tile) - 1;
    auto [begin, end] = plan.packed ? visible_keys(op, 0, op.q_len - 1) : visible_keys(op, r_first, r_last);
    std::int64_t keys = std::max<std::int64_t>(1, end - begin), per_split = ceil_div(keys, plan.splits);
    double rows = double(r_last - r_first + 1);
    double q_bytes = rows * double(op.head_dim) * e;
    double q_offset = (double(u / blocks) * double(rows_total) + double(r_first)) * double(op.head_dim) * e;
    for (std::int64_t s = 0; s < plan.splits; ++s) {
      double chunk = double(std::min(per_split, keys - s * per_split));
      if (chunk <= 0) continue;
      k.ctas.open(4.0 * double(plan.m_tile) * chunk * double(op.head_dim));
      k.ctas.read_blocks(tensors.input, q_offset, q_offset + q_bytes);
      k.ctas.read({-1, 2.0 * chunk * double(op.head_dim) * ekv});
      double partial = rows * double(op.head_dim + 1) * 4.0;
      if (plan.splits > 1) k.ctas.write({object_base + (u * plan.splits + s) + 1, partial});
      else k.ctas.write_blocks(tensors.output, q_offset, q_offset + q_bytes);
    }
  }
  std::vector<Kernel> kernels{std::move(k)};
  if (plan.splits > 1)
    kernels.push_back(combine_kernel(op, name, chip, units, plan.splits, double(std::min(rows_total, plan.m_tile)),
                                     object_base, tensors));
  return kernels;
}

}  // namespace

std::int64_t flash_num_splits(std::int64_t batch_heads_mblocks, std::int64_t slots, std::int64_t n_blocks,
                              std::int64_t max_splits) {
  if (double(batch_heads_mblocks) >= 0.8 * double(slots)) return 1;
  max_splits = std::min({max_splits, slots, n_blocks});
  auto eligible = [&](std::int64_t s) { return s == 1 || ceil_div(n_blocks, s) != ceil_div(n_blocks, s - 1); };
  std::vector<double> efficiency;
  double best = 0;
  for (std::int64_t s = 1; s <= max_splits; ++s) {
    double waves = double(batch_heads_mblocks * s) / double(slots);
    double eff = eligible(s) ? waves / std::ceil(waves) : 0.0;
    best = std::max(best, eff);
    efficiency.push_back(eff);
  }
  for (std::int64_t s = 1; s <= max_splits; ++s)
    if (eligible(s) && efficiency[std::size_t(s - 1)] >= 0.85 * best) return s;
  return 1;
}

std::vector<Kernel> lower_flash_attention(const AttentionOp& op, AttentionImpl impl, const std::string& name,
                                          const GpuChip& chip, std::int64_t object_base, TensorIds tensors) {
  Plan plan = plan_for(op, impl, chip);
  if (plan.split_form) return split_kv(op, name, chip, plan, object_base, tensors);
  return {tiled(op, name, chip, plan, object_base, tensors)};
}

}  // namespace hwsim
