#include "models/gpu/tile/gemm_lowering.h"
#include "models/gpu/tile/block_scaled_gemm.h"
#include "models/gpu/tile/gemm_alignment.h"
#include "sim/arith.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fmt/format.h>

#include "sim/error.h"

namespace hwsim {
namespace {

// Tile shapes are the chip's (chip.gemm_library: cuBLAS/CUTLASS shapes by default, hipBLASLt's on
// AMD; models/gpu/library_habits.h); unaligned operands take the library's fallback tiles.
const int kSplitFactors[] = {1, 2, 3, 4, 6, 8, 12, 16};
// cp.async copies 4, 8 or 16 bytes; narrower operands are staged through registers one K stage
// ahead (PTX ISA, cp.async: cp-size 4, 8 or 16).
constexpr int kAsyncCopyMinBytes = 4;
// Tile rows per raster band (the libraries' swizzle / Triton's GROUP_SIZE_M).
constexpr std::int64_t kRasterBand = 8;

// Bytes of accumulator registers one CTA may hold: half the register file (the rest is for
// addresses, fragments and the epilogue).
double accumulator_budget(const GpuChip& chip) { return chip.registers_per_sm * 4.0 / 2.0; }

struct Footprint {
  double stage_bytes;
  int stages;
  int ctas_per_sm;
};

std::optional<Footprint> footprint(const GemmOp& g, const GpuChip& chip, int bm, int bn, int bk) {
  double stage = (bm * bytes_per_element(g.a) + bn * bytes_per_element(g.b)) * bk;
  int stages = int(std::min(4.0, std::floor(chip.shared_memory_per_sm / stage)));
  // Loads straight into shared memory need two buffers; with loads prefetched into registers
  // (AMD PrefetchGlobalRead) one LDS buffer suffices.
  if (stages < (chip.gemm_library.register_prefetch_stages > 0 ? 1 : 2)) return std::nullopt;
  double accumulator = double(bm) * bn * 4.0;
  if (accumulator > accumulator_budget(chip)) return std::nullopt;
  int by_smem = int(chip.shared_memory_per_sm / (stages * stage));
  int by_regs = int(accumulator_budget(chip) / accumulator);
  int ctas = std::max(1, std::min({by_smem, by_regs, chip.max_ctas_per_sm}));
  return Footprint{stage, stages, ctas};
}

int k_step(const GemmOp& g) {
  DType math = gemm_math_dtype(g);
  if (math == DType::fp32) return 16;                        // SIMT: a few K per stage
  // Tensor cores: 128-byte K slices, as the nearest power of two of elements (block-scaled
  // formats, whose bytes include their scales: fp6 128, fp4 256, as CUTLASS's SM100 tiles).
  int elements = int(128 / bytes_per_element(math));
  int below = int(std::bit_floor(unsigned(elements)));
  return elements - below <= 2 * below - elements ? below : 2 * below;
}

// K per stage of a tile the library lists with its depth for 16-bit operands (the same bytes).
int k_step(const GemmOp& g, const GemmTileShape& shape) {
  if (shape.bk16 == 0 || gemm_math_dtype(g) == DType::fp32) return k_step(g);
  return std::max(1, int(std::lround(shape.bk16 * 2.0 / bytes_per_element(gemm_math_dtype(g)))));
}

// Operand bytes of `stages` pipeline stages in flight (Little's law), counting the stages a
// library prefetches into registers; accesses narrower than cp.async allows keep one stage.
double in_flight_bytes(const GemmOp& g, const GpuChip& chip, int stages, int bm, int bn, int bk, int vector_bytes) {
  double stage = (bm * bytes_per_element(g.a) + bn * bytes_per_element(g.b)) * bk;
  if (vector_bytes < kAsyncCopyMinBytes) return stage;
  return (stages - 1 + chip.gemm_library.register_prefetch_stages) * stage;
}

// Without TMA the library's fallback kernel (one alignment for all three matrices: the narrowest,
// as cuBLAS picks "alignN" kernels) loads every operand byte into registers and stores it to shared
// memory lane by lane, and stores every output byte the same way: the SM's load/store path
// (chip.paths.lsu_lanes_per_clock) serves them while the math runs. Returned as the tensor-rate
// FLOPs of the same time; a CTA takes the longer of the two (they overlap), so math-heavy kernels
// (FP32 on the CUDA cores) hide narrow loads and tensor-core kernels do not.
double lsu_equivalent_flops(const GemmOp& g, const GpuChip& chip, int vector_bytes, double operand_bytes,
                            double out_bytes) {
  if (vector_bytes >= 16) return 0;
  double lanes = (2 * operand_bytes + out_bytes) / vector_bytes;
  return lanes / (chip.paths.lsu_lanes_per_clock * chip.clock_hz) * gemm_sm_flop_rate(g, chip, false);
}

// hipBLASLt's WorkGroupMappingXCC: the hardware deals thread block i to partition i mod P; the
// kernel renumbers blocks so that partition p runs a contiguous run of the tile order (its share,
// the first n mod P partitions one more). Returns `ctas` in hardware dispatch order.
CtaList remap_to_partitions(const CtaList& ctas, int partitions) {
  std::size_t n = ctas.size(), p_count = std::size_t(partitions), q = n / p_count, r = n % p_count;
  CtaList out;
  out.reserve(n, ctas.operands().size());
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t p = i % p_count, k = i / p_count;
    out.push_back(ctas[p * q + std::min(p, r) + k]);
  }
  return out;
}

// Analytic wave model used only to rank candidates (the simulation decides the real time).
double estimate(const GemmOp& g, const GpuChip& chip, const GemmTiling& t) {
  double ea = bytes_per_element(g.a), eb = bytes_per_element(g.b), eo = bytes_per_element(g.out);
  std::int64_t tm = ceil_div(g.m, t.bm), tn = ceil_div(g.n, t.bn);
  double tiles = double(tm * tn * g.groups * t.split_k);
  double kc = double(ceil_div(ceil_div(g.k, t.split_k), t.bk) * t.bk);
  double slots = double(chip.sm_count) * t.ctas_per_sm;
  double waves = std::ceil(tiles / slots);
  if (t.stream_k) {
    // One wave of persistent CTAs, each doing an equal share of all K iterations.
    double iterations = tiles * double(ceil_div(g.k, t.bk));
    kc = std::ceil(iterations / slots) * t.bk;
    tiles = slots;
    waves = 1;
  }
  double active = std::min(tiles, slots);
  double sharing = std::min<double>(t.ctas_per_sm, std::ceil(tiles / chip.sm_count));
  bool tma = gemm_alignment(g).tma();
  double sm_rate = gemm_sm_flop_rate(g, chip, tma);
  double lsu = lsu_equivalent_flops(g, chip, t.vector_bytes, (t.bm * ea + t.bn * eb) * kc, t.bm * t.bn * eo);
  double math = std::max(2.0 * t.bm * t.bn * kc, lsu) / (sm_rate / sharing);
  double cluster = tma && tm >= chip.cluster_size ? chip.cluster_size : 1;
  double cta_bytes = (t.bm * ea + t.bn * eb / cluster) * kc;
  double l2_time = active * cta_bytes / chip.l2_bandwidth;
  double port = chip.sm_port_bytes_per_clock * chip.clock_hz / sharing;
  double in_flight = in_flight_bytes(g, chip, t.stages, t.bm, t.bn, t.bk, t.vector_bytes);
  double latency_rate = in_flight / chip.hbm_latency;
  double load_time = cta_bytes / std::min(port, latency_rate);
  double epilogue = t.bm * t.bn * eo / port + chip.cta_overhead;
  double wave = std::max({math, l2_time, load_time}) + chip.hbm_latency + epilogue;
  double compulsory = double(g.groups) * (double(g.m) * g.k * ea + double(g.n) * g.k * eb + double(g.m) * g.n * eo);
  double hbm = compulsory / chip.usable_hbm_bandwidth();
  double reduce = t.split_k > 1 || t.stream_k ? 2.0 * tiles * t.bm * t.bn * 4.0 / chip.l2_bandwidth : 0;
  if (t.stream_k) reduce += chip.cta_overhead + epilogue;  // partial-tile fixup: wait, read, add
  return chip.launch_overhead + std::max(waves * wave, hbm + chip.hbm_latency) + reduce;
}

}  // namespace

DType gemm_math_dtype(const GemmOp& g) {
  // Weight-only formats are dequantised to the activation dtype; otherwise a == b.
  return g.a;
}

double gemm_sm_flop_rate(const GemmOp& g, const GpuChip& chip, bool tma) {
  DType math = gemm_math_dtype(g);
  if (math == DType::fp32) return chip.flop_rate_per_sm(math, g.acc) * chip.simt_efficiency;
  bool mma_sync = !tma || (math == DType::int8 && chip.gemm_library.int8_mma_sync);
  double path = mma_sync ? chip.paths.mma_sync_fraction : 1.0;
  double rate = chip.flop_rate_per_sm(math, g.acc) * chip.tensor_efficiency * path;  // acc = fp16: the FP16-accumulate rate
  return block_scaled_rate(g, chip, rate);  // fp8 block scales promoted on CUDA cores, where they are
}

std::vector<GemmTiling> gemm_candidates(const GemmOp& g, const GpuChip& chip) {
  std::vector<GemmTiling> out;
  bool simt = gemm_math_dtype(g) == DType::fp32;
  // The fallback family when any matrix is unaligned, its accesses as wide as the narrowest allows.
  GemmAlignment alignment = gemm_alignment(g);
  int vector_bytes = alignment.vector_bytes();
  // int8 on the library's mma.sync kernels: their own tiles, each CTA over all of K.
  bool int8_family = alignment.tma() && gemm_math_dtype(g) == DType::int8 && chip.gemm_library.int8_mma_sync;
  const auto& tiles = simt ? chip.gemm_library.simt_tiles
                      : !alignment.tma() ? chip.gemm_library.unaligned_tiles
                      : int8_family      ? chip.gemm_library.int8_tiles
                                         : chip.gemm_library.tensor_tiles;
  for (const auto& shape : tiles) {
    int bk = k_step(g, shape);
    auto fp = footprint(g, chip, shape.bm, shape.bn, bk);
    if (!fp) continue;
    double base_tiles = double(ceil_div(g.m, shape.bm) * ceil_div(g.n, shape.bn) * g.groups);
    for (int split : kSplitFactors) {
      if (split > 1 && (int8_family || base_tiles * split > 2.0 * chip.sm_count * fp->ctas_per_sm ||
                        ceil_div(g.k, split) < 4 * bk))
        break;
      GemmTiling t{shape.bm, shape.bn, bk, fp->stages, split, false, fp->ctas_per_sm, 0, vector_bytes};
      t.predicted_seconds = estimate(g, chip, t);
      out.push_back(t);
    }
    if (!int8_family && chip.gemm_library.stream_k && base_tiles > double(chip.sm_count) * fp->ctas_per_sm) {
      GemmTiling t{shape.bm, shape.bn, bk, fp->stages, 1, true, fp->ctas_per_sm, 0, vector_bytes};
      t.predicted_seconds = estimate(g, chip, t);
      out.push_back(t);
    }
  }
  return out;
}

GemmTiling choose_gemm_tiling(const GemmOp& g, const GpuChip& chip) {
  auto all = gemm_candidates(g, chip);
  if (all.empty())
    workload_error(fmt::format("a {}x{}x{} {} GEMM: no tile of the library's list fits the SM's {:.0f} B of shared memory "
                               "(gpu.sm.shared_memory; gpu.tile.gemm_tiles lists the tiles)",
                               g.m, g.n, g.k, dtype_name(g.a), chip.shared_memory_per_sm));
  return *std::min_element(all.begin(), all.end(), [](const GemmTiling& a, const GemmTiling& b) {
    return a.predicted_seconds < b.predicted_seconds;
  });
}

std::int64_t gemm_weight_panel(const GemmOp& g, const GemmTiling& t, std::int64_t object_base, std::int64_t grp,
                               std::int64_t j, std::int64_t s) {
  std::int64_t tm = ceil_div(g.m, t.bm), tn = ceil_div(g.n, t.bn);
  return object_base + ((g.groups * tm + grp * tn + j) * t.split_k + s) * 2 + 1;
}

Kernel lower_gemm(const GemmOp& g, const std::string& name, const GemmTiling& t, const GpuChip& chip,
                  std::int64_t object_base, TensorIds tensors) {
  double ea = bytes_per_element(g.a), eb = bytes_per_element(g.b), eo = bytes_per_element(g.out);
  std::int64_t tm = ceil_div(g.m, t.bm), tn = ceil_div(g.n, t.bn);
  std::int64_t k_per_split = ceil_div(g.k, t.split_k);
  check_kernel_size(name, double(tm) * double(tn) * double(g.groups) * t.split_k, "output tiles");
  bool tma = gemm_alignment(g).tma();
  int cluster = tma && tm >= chip.cluster_size ? chip.cluster_size : 1;
  // Without TMA, the load/store path's lane accesses (per CTA: its operand and output bytes),
  // overlapped with the math: a CTA's work is the longer of the two.
  auto with_lsu = [&](double math_flops, double operand_bytes, double out_bytes) {
    return std::max(math_flops, lsu_equivalent_flops(g, chip, t.vector_bytes, operand_bytes, out_bytes));
  };
  std::string fallback = (tma ? "" : fmt::format(" unaligned fallback: {}", gemm_alignment(g).reason)) +
                         block_scale_label(g, chip);

  Kernel k;
  k.name = name;
  k.op_class = "gemm";
  k.dtype = gemm_math_dtype(g);
  k.config = fmt::format("tile {}x{}x{} stages {} split-k {} cluster {} ({} CTA/SM){}", t.bm, t.bn, t.bk,
                         t.stages, t.split_k, cluster, t.ctas_per_sm, fallback);
  k.sm_flop_rate = gemm_sm_flop_rate(g, chip, tma);
  k.ctas_per_sm = t.ctas_per_sm;
  k.bytes_in_flight = in_flight_bytes(g, chip, t.stages, t.bm, t.bn, t.bk, t.vector_bytes);
  double a_share = t.bm * ea, b_share = t.bn * eb;
  k.l2_read_factor = (a_share + b_share / cluster) / (a_share + b_share);
  k.hbm_access_cost = 1.0 / chip.tile_load_dram_efficiency;
  k.prologue = 0;
  k.flops = 2.0 * double(g.m) * g.n * g.k * g.groups;
  k.min_bytes = double(g.groups) * (double(g.m) * g.k * ea + double(g.n) * g.k * eb + double(g.m) * g.n * eo);
  k.peak_flop_rate = chip.peak_flop_rate(k.dtype, g.acc);

  // L2 objects: A row-panels and B column-panels per (group, k-slice).
  // x rows [i·bm, …) and K slice s, as blocks of the input tensor (panels when it has no id).
  double row_bytes = double(g.k) * ea;
  // Each calls f(OperandRead) per object, in order.
  auto a_reads = [&](std::int64_t grp, std::int64_t i, std::int64_t s, double rows, double k_begin, double k_end,
                     auto&& f) {
    if (tensors.input < 0)
      return f(OperandRead{object_base + ((grp * tm + i) * t.split_k + s) * 2, rows * (k_end - k_begin) * ea});
    double panel = (double(grp) * g.m + double(i) * t.bm) * row_bytes;
    double fraction_begin = k_begin / double(g.k), fraction_end = k_end / double(g.k);
    for_each_tensor_block(tensors.input, panel + rows * row_bytes * fraction_begin,
                          panel + rows * row_bytes * fraction_end, f);
  };
  // out rows of tile (i, j), as blocks of the output tensor (streaming stores when it has no id).
  auto out_writes = [&](std::int64_t grp, std::int64_t i, std::int64_t j, double rows, double cols, auto&& f) {
    if (tensors.output < 0) return f(OperandRead{-1, rows * cols * eo});
    double tile_rows = (double(grp) * g.m + double(i) * t.bm) * double(g.n) * eo;
    double begin = tile_rows + double(j) / double(tn) * rows * double(g.n) * eo;
    for_each_tensor_block(tensors.output, begin, begin + rows * cols * eo, f);
  };
  auto b_id = [&](std::int64_t grp, std::int64_t j, std::int64_t s) {
    return gemm_weight_panel(g, t, object_base, grp, j, s);
  };
  // Output tiles in the libraries' swizzled raster: bands of kRasterBand tile rows, each band
  // swept column by column, so the CTAs resident at one time share A and B panels in L2.
  struct TileIndex { std::int64_t grp, i, j; double rows, cols; };
  std::vector<TileIndex> order;
  order.reserve(std::size_t(g.groups * tm * tn));
  for (std::int64_t grp = 0; grp < g.groups; ++grp)
    for (std::int64_t band = 0; band < tm; band += kRasterBand)
      for (std::int64_t j = 0; j < tn; ++j)
        for (std::int64_t i = band; i < std::min(tm, band + kRasterBand); ++i)
          order.push_back({grp, i, j, double(std::min<std::int64_t>(t.bm, g.m - i * t.bm)),
                           double(std::min<std::int64_t>(t.bn, g.n - j * t.bn))});

  if (t.stream_k) {
    // Persistent CTAs over the flattened (tile, K-iteration) space.
    std::int64_t k_iters = ceil_div(g.k, t.bk);
    std::int64_t total = std::int64_t(order.size()) * k_iters;
    std::int64_t slots = std::int64_t(chip.sm_count) * t.ctas_per_sm;
    std::int64_t per_cta = ceil_div(total, slots);
    k.config = fmt::format("tile {}x{}x{} stages {} stream-k {} CTAs cluster {} ({} CTA/SM){}", t.bm, t.bn, t.bk,
                           t.stages, ceil_div(total, per_cta), cluster, t.ctas_per_sm, fallback);
    for (std::int64_t first = 0; first < total; first += per_cta) {
      std::int64_t last = std::min(total, first + per_cta);
      CtaWork c;
      for (std::int64_t it = first; it < last;) {
        std::int64_t tile = it / k_iters;
        std::int64_t tile_end = std::min(last, (tile + 1) * k_iters);
        const TileIndex& ti = order[std::size_t(tile)];
        double span = double(std::min(g.k, (tile_end - tile * k_iters) * t.bk) -
                             std::min(g.k, (it - tile * k_iters) * t.bk));
        double piece_flops = 2.0 * t.bm * t.bn * double(tile_end - it) * t.bk;
        double k_begin = std::min<double>(double(g.k), double((it - tile * k_iters) * t.bk));
        a_reads(ti.grp, ti.i, 0, ti.rows, k_begin, k_begin + span, [&](const OperandRead& r) { c.reads.push_back(r); });
        c.reads.push_back({b_id(ti.grp, ti.j, 0), ti.cols * span * eb});
        bool whole_tile = it == tile * k_iters && tile_end == (tile + 1) * k_iters;
        if (tile_end == (tile + 1) * k_iters)
          out_writes(ti.grp, ti.i, ti.j, ti.rows, ti.cols, [&](const OperandRead& w) { c.writes.push_back(w); });
        if (!whole_tile) c.scratch_bytes += 2.0 * ti.rows * ti.cols * 4.0;
        c.flops += with_lsu(piece_flops, (ti.rows * ea + ti.cols * eb) * span,
                            tile_end == (tile + 1) * k_iters ? ti.rows * ti.cols * eo : 0);
        it = tile_end;
      }
      k.ctas.push_back(std::move(c));
    }
    if (chip.gemm_library.partition_remap && chip.layout.partitions > 1)
      k.ctas = remap_to_partitions(k.ctas, chip.layout.partitions);
    return k;
  }

  double kc_padded = double(ceil_div(k_per_split, t.bk) * t.bk);
  k.ctas.reserve(order.size() * std::size_t(t.split_k));
  for (const TileIndex& ti : order) {
    for (std::int64_t s = 0; s < t.split_k; ++s) {
      double kc = double(std::min(k_per_split, g.k - s * k_per_split));
      double math = 2.0 * t.bm * t.bn * kc_padded;  // padded tiles compute the padding too
      double k_begin = double(s * k_per_split);
      k.ctas.open(with_lsu(math, (ti.rows * ea + ti.cols * eb) * kc, s == 0 ? ti.rows * ti.cols * eo : 0),
                  t.split_k > 1 ? 2.0 * ti.rows * ti.cols * 4.0 : 0);
      auto read = [&](const OperandRead& r) { k.ctas.read(r); };
      a_reads(ti.grp, ti.i, s, ti.rows, k_begin, k_begin + kc, read);
      read({b_id(ti.grp, ti.j, s), ti.cols * kc * eb});
      if (s == 0) out_writes(ti.grp, ti.i, ti.j, ti.rows, ti.cols, [&](const OperandRead& w) { k.ctas.write(w); });
    }
  }
  if (chip.gemm_library.partition_remap && chip.layout.partitions > 1)
    k.ctas = remap_to_partitions(k.ctas, chip.layout.partitions);
  return k;
}

}  // namespace hwsim
