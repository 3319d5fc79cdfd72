#include "models/spatial/spatial_lowering.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "ops/conv.h"
#include "sim/error.h"

namespace hwsim {
namespace {

double padded_rows(double rows, const SpatialChip& chip) { return std::ceil(rows / chip.tile_rows) * chip.tile_rows; }

// Matrix FLOP/s an op gets: every core of its chips (ops run one at a time, so the cores beside those
// holding its weights are free; the weights reach them over the NoC, which a compute-bound op reuses
// many times), at the matrix efficiency.
double compute_rate(const OpPlacement& p, DType math, const SpatialChip& chip) {
  return p.chips * chip.cores() * chip.core_matrix_rate(math) * chip.matrix_efficiency;
}

// The op's cores, their SRAM rate, and the NoC traversal of `activation_bytes` over its region.
void spread(SpatialWork& w, const OpPlacement& p, double activation_bytes, const SpatialChip& chip) {
  w.cores = p.cores;
  w.chips = p.chips;
  w.sram_rate = p.cores * chip.sram_bandwidth;
  double per_chip = p.cores / p.chips;
  w.noc_latency = noc_hops(per_chip, chip) * chip.noc_hop_latency;
  w.noc_bytes = activation_bytes;
  w.noc_rate = std::sqrt(per_chip) * chip.noc_link_bandwidth * chip.noc_count * p.chips;
}

// Chip-to-chip movement: the hop from the previous op's chip (pipeline), the gather of an op spread
// over several chips, or a tensor-parallel op's all-reduce of its output.
void links(SpatialWork& w, const OpPlacement& p, double previous_last_chip, double in_bytes, double out_bytes,
           const SpatialChip& chip) {
  w.c2c_rate = chip.c2c_bandwidth;
  if (chip.parallel == ChipParallel::tensor) {
    if (chip.chips <= 1 || p.weight_bytes <= 0) return;
    double steps = 2 * (chip.chips - 1);
    w.c2c_latency = steps * chip.c2c_latency;
    w.c2c_bytes = steps / chip.chips * out_bytes;
    return;
  }
  double hops = std::abs(p.first_chip - previous_last_chip) + (p.chips - 1);
  w.c2c_latency = hops * chip.c2c_latency;
  w.c2c_bytes = (p.first_chip != previous_last_chip ? in_bytes : 0) + (p.chips - 1) / p.chips * out_bytes;
}

SpatialWork lower_gemm(const GemmOp& g, const OpPlacement& p, double previous_last_chip, const SpatialChip& chip) {
  SpatialWork w;
  DType math = chip.math_dtype(g.a, g.b);
  double m = double(g.m), n = double(g.n), k = double(g.k), groups = double(g.groups);
  double in = m * k * groups * bytes_per_element(g.a), out = m * n * groups * bytes_per_element(g.out);
  spread(w, p, in + out, chip);
  links(w, p, previous_last_chip, in, out, chip);
  w.flops = 2 * m * n * k * groups;
  w.compute_seconds = 2 * padded_rows(m, chip) * n * k * groups / compute_rate(p, math, chip);
  (p.resident || p.weight_bytes <= 0 ? w.sram_bytes : w.dram_bytes) += p.weight_bytes;
  w.sram_bytes += in + out;
  w.dram_rate = p.chips * chip.dram_bandwidth * chip.dram_efficiency;
  w.peak_flop_rate = chip.chips * chip.cores() * chip.core_matrix_rate(math);
  w.dtype = std::string(dtype_name(math));
  w.config = fmt::format("{} on {} cores of {} chip(s) from chip {}, weights {} B {}", dtype_name(math), p.cores,
                         p.chips, p.first_chip, p.weight_bytes, p.resident ? "in SRAM" : "streamed from DRAM");
  return w;
}

// Attention: QKᵀ and PV on the matrix engines (the query rows padded to the tile), the KV cache read
// from DRAM when the chip has it, else from SRAM.
SpatialWork lower_attention(const AttentionOp& a, const OpPlacement& p, double previous_last_chip,
                            const SpatialChip& chip) {
  SpatialWork w;
  double pairs = attention_pairs(a) * double(a.batch) * double(a.heads);
  double kv = double(a.batch) * double(a.kv_len) * double(a.kv_heads) * double(a.head_dim) * 2 *
              bytes_per_element(a.kv_dtype);
  double q_o = 2 * double(a.batch) * double(a.heads) * double(a.q_len) * double(a.head_dim) * bytes_per_element(a.dtype);
  spread(w, p, q_o, chip);
  links(w, p, previous_last_chip, q_o / 2, q_o / 2, chip);
  (chip.has_dram() ? w.dram_bytes : w.sram_bytes) += kv;
  w.sram_bytes += q_o;
  w.dram_rate = p.chips * chip.dram_bandwidth * chip.dram_efficiency;
  DType math = chip.math_dtype(a.dtype, a.dtype);
  w.flops = 4 * pairs * double(a.head_dim);
  double padding = padded_rows(double(a.q_len), chip) / double(a.q_len);
  w.compute_seconds = w.flops * padding / compute_rate(p, math, chip);
  w.peak_flop_rate = chip.chips * chip.cores() * chip.core_matrix_rate(math);
  w.dtype = std::string(dtype_name(math));
  w.config = fmt::format("attention over {} keys on {} cores, KV {} B from {}", a.kv_len, p.cores, kv,
                         chip.has_dram() ? "dram" : "sram");
  return w;
}

SpatialWork lower_stream(const StreamOp& s, const OpPlacement& p, double previous_last_chip, const SpatialChip& chip) {
  SpatialWork w;
  spread(w, p, s.bytes_read + s.bytes_written, chip);
  links(w, p, previous_last_chip, s.bytes_read, s.bytes_written, chip);
  w.sram_bytes = s.bytes_read + s.bytes_written;
  w.flops = s.flops;
  w.compute_seconds = s.flops / (p.cores * chip.core_vector_rate() * chip.vector_efficiency);
  w.peak_flop_rate = chip.chips * chip.cores() * chip.core_vector_rate();
  w.dtype = "vector";
  w.config = fmt::format("stream of {} B on {} cores", w.sram_bytes, p.cores);
  return w;
}

}  // namespace

double noc_hops(double cores, const SpatialChip& chip) {
  if (cores >= chip.cores()) {
    double span = (chip.grid_rows - 1) + (chip.grid_cols - 1);
    return chip.torus ? span / 2 : span;
  }
  return 2 * (std::ceil(std::sqrt(cores)) - 1);
}

SpatialWork lower_spatial_op(const Op& op, const OpPlacement& place, double previous_last_chip,
                             const SpatialChip& chip) {
  SpatialWork w;
  if (const auto* g = std::get_if<GemmOp>(&op.shape)) w = lower_gemm(*g, place, previous_last_chip, chip);
  else if (const auto* a = std::get_if<AttentionOp>(&op.shape)) w = lower_attention(*a, place, previous_last_chip, chip);
  else if (const auto* s = std::get_if<StreamOp>(&op.shape)) w = lower_stream(*s, place, previous_last_chip, chip);
  else if (const auto* c = std::get_if<ConvOp>(&op.shape)) {
    check_conv(*c, op.name);
    w = lower_gemm(conv_as_gemm(*c), place, previous_last_chip, chip);
  } else {
    workload_error(fmt::format("{}: op class '{}' does not run on a spatial device ({})", op.name, op.op_class,
                               chip.name));
  }
  if (!op.fused.empty()) {  // elementwise work fused into the op: its bytes in SRAM, its FLOPs on the vector engines
    w.sram_bytes += std::max(0.0, op.fused.extra_bytes_read + op.fused.extra_bytes_written);
    w.flops += op.fused.vector_flops;
    w.compute_seconds += op.fused.vector_flops / (place.cores * chip.core_vector_rate() * chip.vector_efficiency);
  }
  w.name = op.name;
  w.op_class = op.op_class;
  w.overhead = chip.op_overhead;
  return w;
}

}  // namespace hwsim
