#include "models/gpu/tile/quant_gemm_lowering.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "models/gpu/tile/gemm_lowering.h"
#include "models/gpu/tile/int8pack_lowering.h"
#include "sim/arith.h"
#include "sim/error.h"

namespace hwsim {
namespace {

// int4 weight-only quantisation groups: torchao's int4_weight_only and gpt-fast default to 128
// weights along K per (bf16 scale, bf16 zero) pair (tinygemm accepts 32–256).
constexpr double kQuantGroup = 128;
constexpr double kScaleBytes = 2;  // bf16 scale, and as much again for the zero point (int4)
// A standalone dequantisation kernel per weight: unpack (shift, mask), int → float, (q − zero)·scale,
// convert to the activation dtype: about this many FP32-pipe lane instructions.
constexpr double kSeparateDequantOpsPerWeight = 4;
// A thread block of the dequantisation kernel (an elementwise kernel: 256 threads, each with four
// 16-byte accesses in flight) and the least data one CTA takes.
constexpr double kDequantThreads = 256;
constexpr double kDequantBytesInFlightPerThread = 64;
constexpr double kDequantMinBytesPerCta = 512;

// FP32/ALU-pipe lane instructions an SM issues per second (its FP32 rate counts an FMA as 2 FLOP).
double lane_rate(const GpuChip& chip) { return chip.flop_rate_per_sm(DType::fp32) / 2; }

double weights(const GemmOp& g) { return double(g.n) * double(g.k) * double(g.groups); }

// The fused kernel's math: 16-bit activations on the mma.sync path.
double fused_rate(const GemmOp& g, const GpuChip& chip) {
  return chip.flop_rate_per_sm(g.a, g.acc) * chip.tensor_efficiency * chip.paths.mma_sync_fraction;
}

// One piece of a fused kernel's work: output tile (grp, pass, j), K iterations [k_first, k_last).
struct Piece {
  std::int64_t grp, pass, j;
  double rows, cols, k_begin, k_end;
  bool finishes_tile;  // writes the output (its K range ends the tile's)
  bool whole_tile;     // no partial sums through L2
};

class FusedBuilder {
 public:
  FusedBuilder(const GemmOp& g, const GpuChip& chip, const FusedQuantKernel& kernel, std::int64_t object_base,
               TensorIds tensors)
      : g_(g), chip_(chip), q_(kernel), base_(object_base), tensors_(tensors),
        ea_(bytes_per_element(g.a)), eb_(bytes_per_element(g.b)), eo_(bytes_per_element(g.out)),
        scale_per_weight_(quant_scale_bytes(g) / weights(g)), passes_(ceil_div(g.m, q_.m_tile)),
        tn_(ceil_div(g.n, q_.n_tile)),
        dequant_flops_per_weight_(q_.dequant_ops_per_weight / lane_rate(chip) * fused_rate(g, chip)),
        load_flops_per_byte_(fused_rate(g, chip) / (q_.activation_bytes_per_clock * chip.clock_hz)) {}

  Kernel build(const std::string& name) {
    Kernel k = header(name);
    std::int64_t k_iters = ceil_div(g_.k, q_.k_step);
    std::int64_t tiles = g_.groups * passes_ * tn_;
    if (!q_.stripe_k) {
      check_kernel_size(name, double(tiles), "CTAs");
      // One CTA per output tile, walking all of K; grid (1, n tiles, m passes): passes outermost.
      for (std::int64_t t = 0; t < tiles; ++t) k.ctas.push_back(cta({piece(t, 0, k_iters)}));
    } else {
      // Persistent CTAs, one per SM, each an equal share of every tile's K iterations.
      std::int64_t total = tiles * k_iters, per_cta = ceil_div(total, chip_.sm_count);
      for (std::int64_t first = 0; first < total; first += per_cta) {
        std::vector<Piece> pieces;
        for (std::int64_t it = first, last = std::min(total, first + per_cta); it < last;) {
          std::int64_t t = it / k_iters, end = std::min(last, (t + 1) * k_iters);
          pieces.push_back(piece(t, it - t * k_iters, end - t * k_iters));
          it = end;
        }
        k.ctas.push_back(cta(pieces));
      }
    }
    k.config = fmt::format("{} {}x{} weight-only {}: {} passes of {} rows, {} CTAs ({} CTA/SM), weights read {:.3g} MB "
                           "({} + scales), dequant {:.0f}% of SM time",
                           q_.name, q_.m_tile, q_.n_tile, dtype_name(g_.b), passes_, q_.m_tile, k.ctas.size(),
                           k.ctas_per_sm, weight_bytes_read_ / 1e6, dtype_name(g_.b),
                           100 * ratio(dequant_flops_, total_flops_));
    return k;
  }

 private:
  Kernel header(const std::string& name) const {
    Kernel k;
    k.name = name;
    k.op_class = "gemm";
    k.dtype = g_.a;
    k.sm_flop_rate = fused_rate(g_, chip_);
    k.ctas_per_sm = q_.stripe_k ? 1 : std::max(1, std::min(chip_.max_ctas_per_sm, int(chip_.threads_per_sm() / q_.threads)));
    k.bytes_in_flight = q_.stages * q_.k_step * (q_.m_tile * ea_ + q_.n_tile * (eb_ + scale_per_weight_));
    k.hbm_access_cost = 1.0 / chip_.tile_load_dram_efficiency;
    k.flops = 2.0 * double(g_.m) * double(g_.n) * double(g_.k) * double(g_.groups);
    k.min_bytes = double(g_.groups) * double(g_.m) * (double(g_.k) * ea_ + double(g_.n) * eo_) + weights(g_) * eb_ +
                  quant_scale_bytes(g_);
    k.peak_flop_rate = chip_.peak_flop_rate(g_.a, g_.acc);
    return k;
  }

  // Tile t in dispatch order (group, pass, column tile), K iterations [first, last).
  Piece piece(std::int64_t t, std::int64_t first, std::int64_t last) const {
    std::int64_t j = t % tn_, pass = (t / tn_) % passes_, grp = t / (tn_ * passes_);
    std::int64_t k_iters = ceil_div(g_.k, q_.k_step);
    double rows = double(std::min<std::int64_t>(q_.m_tile, g_.m - pass * q_.m_tile));
    double cols = double(std::min<std::int64_t>(q_.n_tile, g_.n - j * q_.n_tile));
    double k_begin = double(std::min(g_.k, first * q_.k_step)), k_end = double(std::min(g_.k, last * q_.k_step));
    return {grp, pass, j, rows, cols, k_begin, k_end, last == k_iters, first == 0 && last == k_iters};
  }

  CtaWork cta(const std::vector<Piece>& pieces) {
    CtaWork c;
    for (const Piece& p : pieces) {
      double span = p.k_end - p.k_begin;
      // The MMA runs on whole m16 tiles of rows: a pass shorter than m_tile computes the padding.
      double padded_rows = double(round_up(std::int64_t(p.rows), 16));
      double dequant = p.cols * span * dequant_flops_per_weight_;
      // The L1's clocks for the activation rows, as the math they keep the SM from (load_flops_per_byte_).
      double loads = p.rows * span * ea_ * load_flops_per_byte_;
      c.flops += 2.0 * padded_rows * p.cols * span + dequant + loads;
      dequant_flops_ += dequant;
      total_flops_ += 2.0 * padded_rows * p.cols * span + dequant + loads;
      for (const auto& r : activation_reads(p)) c.reads.push_back(r);
      double packed = p.cols * span * (eb_ + scale_per_weight_);
      c.reads.push_back({base_ + (std::int64_t(1) << 32) + p.grp * tn_ + p.j, packed, p.k_begin * p.cols * (eb_ + scale_per_weight_)});
      weight_bytes_read_ += packed;
      if (!p.whole_tile) c.scratch_bytes += 2.0 * p.rows * p.cols * 4.0;
      if (p.finishes_tile)
        for (const auto& w : output_writes(p)) c.writes.push_back(w);
    }
    return c;
  }

  // The pass's activation rows, K range [k_begin, k_end): blocks of the input tensor (an object
  // per pass when it has no identity).
  OperandList activation_reads(const Piece& p) const {
    double row_bytes = double(g_.k) * ea_;
    double bytes = p.rows * (p.k_end - p.k_begin) * ea_;
    if (tensors_.input < 0) return {{base_ + p.grp * passes_ + p.pass, bytes, p.rows * p.k_begin * ea_}};
    double panel = (double(p.grp) * double(g_.m) + double(p.pass) * q_.m_tile) * row_bytes;
    double begin = panel + p.rows * row_bytes * p.k_begin / double(g_.k);
    return tensor_blocks(tensors_.input, begin, begin + bytes);
  }

  OperandList output_writes(const Piece& p) const {
    double bytes = p.rows * p.cols * eo_;
    if (tensors_.output < 0) return {{-1, bytes}};
    double rows_begin = (double(p.grp) * double(g_.m) + double(p.pass) * q_.m_tile) * double(g_.n) * eo_;
    double begin = rows_begin + double(p.j) / double(tn_) * p.rows * double(g_.n) * eo_;
    return tensor_blocks(tensors_.output, begin, begin + bytes);
  }

  const GemmOp& g_;
  const GpuChip& chip_;
  FusedQuantKernel q_;
  std::int64_t base_;
  TensorIds tensors_;
  double ea_, eb_, eo_, scale_per_weight_;
  std::int64_t passes_, tn_;
  double dequant_flops_per_weight_;
  double load_flops_per_byte_;  // SM time of an activation byte through the L1, in the kernel's FLOPs
  double dequant_flops_ = 0, total_flops_ = 0, weight_bytes_read_ = 0;
};

// The weight panels of the GEMM (`tiling`, `object_base`) in its layout: the L2 objects it loads.
struct Panel {
  std::int64_t id;
  double bytes;  // in the activation dtype
};

std::vector<Panel> weight_panels(const GemmOp& full, const GemmTiling& t, std::int64_t object_base) {
  std::vector<Panel> panels;
  double ea = bytes_per_element(full.b);
  std::int64_t tn = ceil_div(full.n, t.bn), k_per_split = ceil_div(full.k, t.split_k);
  for (std::int64_t grp = 0; grp < full.groups; ++grp)
    for (std::int64_t j = 0; j < tn; ++j)
      for (std::int64_t s = 0; s < t.split_k; ++s) {
        double cols = double(std::min<std::int64_t>(t.bn, full.n - j * t.bn));
        double kc = double(std::min(k_per_split, full.k - s * k_per_split));
        panels.push_back({gemm_weight_panel(full, t, object_base, grp, j, s), cols * kc * ea});
      }
  return panels;
}

// One elementwise pass over the weights: each CTA reads `read_per_weight` bytes per weight (from
// `source` panels shifted by `source_shift`, or streamed from memory when source_shift < 0) and
// writes the activation dtype into the panels shifted by `dest_shift`.
struct WeightPass {
  std::string suffix;       // ".dequant", ".cast", ".scale"
  double read_per_weight;
  double ops_per_weight;    // FP32-pipe lane instructions
  std::int64_t source_shift;// < 0: streamed packed weights
  std::int64_t dest_shift;  // 0: the GEMM's own panels
};

Kernel weight_pass(const GemmOp& g, const std::vector<Panel>& panels, const WeightPass& pass, const std::string& name,
                   const GpuChip& chip, const std::string& what) {
  double ea = bytes_per_element(g.a);
  Kernel k;
  k.name = name + pass.suffix;
  k.op_class = "dequant";
  k.dtype = DType::fp32;
  k.sm_flop_rate = chip.flop_rate_per_sm(DType::fp32) * chip.simt_efficiency;
  k.ctas_per_sm = std::max(1, int(chip.threads_per_sm() / kDequantThreads));
  k.bytes_in_flight = kDequantThreads * kDequantBytesInFlightPerThread;
  k.flops = 2.0 * pass.ops_per_weight * weights(g);  // lane instructions, 2 FLOP each at the FP32 rate
  k.min_bytes = weights(g) * (pass.read_per_weight + ea);
  k.peak_flop_rate = chip.peak_flop_rate(DType::fp32);
  double total = weights(g) * ea;
  double ctas = std::max(1.0, std::min(double(chip.sm_count) * k.ctas_per_sm, std::ceil(total / kDequantMinBytesPerCta)));
  check_kernel_size(k.name, ctas, "CTAs");
  double share = total / ctas;
  std::size_t p = 0;
  double used = 0;  // bytes of panels[p] already assigned
  for (std::int64_t i = 0; i < std::int64_t(ctas); ++i) {
    CtaWork c;
    c.flops = k.flops / ctas;
    if (pass.source_shift < 0) c.reads.push_back({-1, share / ea * pass.read_per_weight});
    for (double left = share; left > 1e-9 && p < panels.size();) {
      double take = std::min(left, panels[p].bytes - used);
      if (pass.source_shift >= 0)
        c.reads.push_back({panels[p].id + pass.source_shift, take / ea * pass.read_per_weight, used});
      c.writes.push_back({panels[p].id + pass.dest_shift, take, used});
      used += take, left -= take;
      if (panels[p].bytes - used <= 1e-9) ++p, used = 0;
    }
    k.ctas.push_back(std::move(c));
  }
  k.config = fmt::format("{}: {} weights ({:.3g} MB read, {:.3g} MB {} written), {} CTAs", what, weights(g),
                         weights(g) * pass.read_per_weight / 1e6, total / 1e6, dtype_name(g.a), ctas);
  return k;
}

// dequant=separate: one kernel unpacks and scales the packed weights into the GEMM's panels.
// dequant=eager (int8, fp8): W.to(act) into a temporary, then · scales into the GEMM's panels.
std::vector<Kernel> dequant_kernels(const GemmOp& g, const std::vector<Panel>& panels, const std::string& name,
                                    const GpuChip& chip) {
  double packed = bytes_per_element(g.b) + quant_scale_bytes(g) / weights(g), ea = bytes_per_element(g.a);
  if (g.dequant == Dequant::separate)
    return {weight_pass(g, panels, {".dequant", packed, kSeparateDequantOpsPerWeight, -1, 0}, name, chip,
                        fmt::format("dequantise {} + scales to {}", dtype_name(g.b), dtype_name(g.a)))};
  if (g.b == DType::int4)
    workload_error(fmt::format("{}: dequant=eager is modelled for int8 and fp8 weights (a cast and a multiply); "
                               "packed int4 needs dequant=fused or separate", name));
  const std::int64_t temp = std::int64_t(1) << 34;  // the cast's output panels, beside the GEMM's
  // Both framework ops run on PyTorch's unvectorised elementwise kernels (ElementwiseHabits).
  const double ops = chip.elementwise_library.unvectorized_ops_per_element;
  return {weight_pass(g, panels, {".cast", bytes_per_element(g.b), ops, -1, temp}, name, chip,
                      fmt::format("{}.to({})", dtype_name(g.b), dtype_name(g.a))),
          weight_pass(g, panels, {".scale", ea + quant_scale_bytes(g) / weights(g), ops, temp, 0},
                      name, chip, "· per-channel scales")};
}

}  // namespace

bool is_weight_only(const GemmOp& g) { return bytes_per_element(g.b) < bytes_per_element(g.a); }

double quant_scale_bytes(const GemmOp& g) {
  double n = double(g.n) * double(g.groups);
  if (g.b == DType::int4) return n * std::ceil(double(g.k) / kQuantGroup) * 2 * kScaleBytes;
  return n * kScaleBytes;
}

double quant_scale_bytes_per_weight(DType weights) {
  return weights == DType::int4 ? 2 * kScaleBytes / kQuantGroup : 0;
}

std::vector<Kernel> lower_quant_gemm(const GemmOp& g, const std::string& name, const GpuChip& chip,
                                     std::int64_t object_base, TensorIds tensors) {
  if (g.dequant == Dequant::fused) {
    switch (g.quant_kernel) {
      case QuantKernel::int8pack: return lower_int8pack(g, name, chip, object_base, tensors);
      case QuantKernel::tinygemm:
      case QuantKernel::marlin: {
        FusedQuantKernel q = fused_quant_kernel(g.quant_kernel == QuantKernel::marlin ? "marlin" : "tinygemm");
        return {FusedBuilder(g, chip, q, object_base, tensors).build(name)};
      }
      case QuantKernel::automatic: break;
    }
    return {FusedBuilder(g, chip, chip.quant_library.fused, object_base, tensors).build(name)};
  }
  GemmOp full = g;
  full.b = g.a;
  GemmTiling t = choose_gemm_tiling(full, chip);
  std::vector<Kernel> kernels = dequant_kernels(g, weight_panels(full, t, object_base), name, chip);
  kernels.push_back(lower_gemm(full, name, t, chip, object_base, tensors));
  return kernels;
}

}  // namespace hwsim
