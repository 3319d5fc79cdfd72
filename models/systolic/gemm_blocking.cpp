#include "models/systolic/gemm_blocking.h"

#include <algorithm>
#include <fmt/format.h>
#include <vector>

#include "models/systolic/mxu_timing.h"
#include "models/systolic/pipeline_estimate.h"
#include "sim/arith.h"

namespace hwsim {
namespace {

constexpr double kAccumulatorBytes = 4;  // f32 partial sums, as the MXU produces them
constexpr double kDequantBytes = 2;      // narrower weights are widened to bf16 in VMEM


// The problem as fed to the array (transposed: the operands swap roles).
GemmProblem oriented(const GemmProblem& p, bool transposed) {
  if (!transposed) return p;
  GemmProblem t = p;
  std::swap(t.m, t.n);
  std::swap(t.a_bytes, t.b_bytes);
  std::swap(t.dequant_a, t.dequant_b);
  return t;
}

// A blocking in the other orientation's coordinates (an involution, like oriented(problem)).
GemmBlocking flipped(const GemmBlocking& b) {
  if (!b.transposed) return b;
  GemmBlocking f = b;
  std::swap(f.bm, f.bn);
  std::swap(f.a_resident, f.b_resident);
  return f;
}

// Granularity of m, n, k: the array side for the dimensions the dataflow maps onto the array,
// the sublanes for the streamed one.
struct Units { std::int64_t m, n, k; };
Units units(const SystolicChip& c) {
  switch (c.dataflow) {
    case Dataflow::os: return {c.rows, c.cols, c.vpu_sublanes};
    case Dataflow::is: return {c.cols, c.vpu_sublanes, c.rows};
    case Dataflow::ws: break;
  }
  return {c.vpu_sublanes, c.cols, c.rows};
}

// The whole (padded) dimension, then every power-of-two multiple of the unit below it, largest
// first, down to the unit itself (so a block that fits VMEM is found whenever one exists; at most
// ~log2(d / unit) + 1 candidates). A fixed block (a Pallas BlockSpec) is the only candidate.
std::vector<std::int64_t> candidates(std::int64_t d, std::int64_t unit, std::int64_t fixed = 0) {
  std::int64_t whole = round_up(d, unit);
  if (fixed > 0) return {std::min(fixed, whole)};
  std::vector<std::int64_t> out{whole};
  std::int64_t b = unit;
  while (b * 2 < whole) b *= 2;
  for (; b >= unit; b /= 2)
    if (b < whole) out.push_back(b);
  return out;
}

// Operand and partial-sum bytes one block moves through the VMEM port, by dataflow: the
// stationary operand once, the streamed one once per fold along the other spatial dimension,
// partial sums once per fold along K when K is spatial.
double block_vmem_bytes(const GemmProblem& p, const SystolicChip& c, std::int64_t m, std::int64_t n,
                        std::int64_t k) {
  double x = double(m) * k * p.a_bytes, w = double(n) * k * p.b_bytes, out = double(m) * n * kAccumulatorBytes;
  switch (c.dataflow) {
    case Dataflow::ws: return w + x * ceil_div(n, c.cols) + out * ceil_div(k, c.rows);
    case Dataflow::os: return out + x * ceil_div(n, c.cols) + w * ceil_div(m, c.rows);
    case Dataflow::is: return x + w * ceil_div(m, c.cols) + out * ceil_div(k, c.rows);
  }
  return 0;
}

// Vector-unit ops of one block: popping and adding partial sums (once per K fold when K is
// spatial), and widening narrower weights.
double block_vector_ops(const GemmProblem& p, const SystolicChip& c, std::int64_t m, std::int64_t n,
                        std::int64_t k) {
  double pops = double(m) * n * (c.dataflow == Dataflow::os ? 1 : ceil_div(k, c.rows));
  return pops + (p.dequant_a ? double(m) * k * c.dequant_ops : 0) + (p.dequant_b ? double(n) * k * c.dequant_ops : 0);
}

// Sums over every block of the problem (full blocks and the partial ones at the edges).
struct BlockTotals {
  double once_each = 0;  // one block's one-time chain cycles (the phase pays it once per core)
  double cycles = 0, fill = 0, once = 0, folds = 0, cells_used = 0, macs = 0, vector_ops = 0, vmem_bytes = 0;
};

// Whole packs of `per_step` groups, and the one smaller pack of what remains.
struct Pack { std::int64_t groups, count; };
std::vector<Pack> packs(std::int64_t groups, std::int64_t per_step) {
  std::vector<Pack> v{{std::min(groups, per_step), std::max<std::int64_t>(1, groups / per_step)}};
  if (groups > per_step && groups % per_step) v.push_back({groups % per_step, 1});
  return v;
}

BlockTotals sum_blocks(const GemmProblem& p, const SystolicChip& c, const GemmBlocking& b) {
  struct Part { std::int64_t size, count; };
  auto parts = [](std::int64_t d, std::int64_t blk) {
    std::vector<Part> v{{std::min(d, blk), d / blk > 0 ? d / blk : 1}};
    if (d > blk && d % blk) v.push_back({d % blk, 1});
    return v;
  };
  BlockTotals t;
  for (Pack g : packs(p.groups, b.groups_per_step))
    for (Part m : parts(p.m, b.bm))
      for (Part n : parts(p.n, b.bn))
        for (Part k : parts(p.k, b.bk)) {
          double count = double(m.count) * n.count * k.count * g.count;
          BlockTiming bt = time_block(c, m.size, n.size, k.size, g.groups);
          double per_block = double(g.groups);  // vector work and VMEM bytes scale with the groups
          t.cycles += count * bt.cycles;
          t.fill += count * bt.fill_cycles;
          t.once += count * bt.once_cycles;
          t.once_each = std::max<double>(t.once_each, bt.once_cycles);
          t.folds += count * bt.folds;
          t.cells_used += count * bt.folds * bt.fold_efficiency;
          t.macs += count * bt.useful_macs;
          t.vector_ops += count * per_block * block_vector_ops(p, c, m.size, n.size, k.size);
          t.vmem_bytes += count * per_block * block_vmem_bytes(p, c, m.size, n.size, k.size);
        }
  return t;
}

// HBM bytes read under a blocking (writes: C once), of x and of W.
struct Reads { double a = 0, w = 0; };
Reads read_traffic(const GemmProblem& p, const GemmBlocking& b) {
  double a = double(p.m) * p.k * p.a_bytes, w = double(p.n) * p.k * p.b_bytes;
  std::int64_t nm = ceil_div(p.m, b.bm), nn = ceil_div(p.n, b.bn);
  if (b.a_resident) return {p.groups * a, p.groups * w * nm};
  if (b.b_resident) return {p.groups * a * nn, p.groups * w};
  return {p.groups * a * nn, p.groups * w * nm};
}

// The phase of an oriented problem under a blocking (config left empty).
Phase build(const GemmProblem& p, const GemmBlocking& b, const SystolicChip& c) {
  Phase ph;
  std::int64_t nk = ceil_div(p.k, b.bk);
  std::int64_t blocks = ceil_div(p.groups, b.groups_per_step) * ceil_div(p.m, b.bm) * ceil_div(p.n, b.bn);
  ph.steps = split_over_cores(blocks, c.tensorcores, nk);
  double steps = double(blocks * nk);
  BlockTotals t = sum_blocks(p, c, b);
  double cycle = 1.0 / (c.clock_hz * p.macs_per_cell * c.mxu_efficiency);
  PipelineStep& s = ph.step;
  Reads reads = read_traffic(p, b);
  s.load_bytes = (reads.a + reads.w) / steps;
  // The oriented problem's x is the ifmap unless fed transposed (then W streams: the ifmap).
  double filter = b.transposed ? reads.a : reads.w;
  s.filter_share = reads.a + reads.w > 0 ? filter / (reads.a + reads.w) : 0;
  s.store_bytes = p.groups * double(p.m) * p.n * p.out_bytes / steps;
  // Each block's chain pays its one-time fill; in the pipeline only the phase's last step does.
  s.mxu_seconds = (t.cycles - t.once) / steps * cycle;
  s.fill_seconds = (t.fill - t.once) / steps * cycle;
  ph.once_seconds = t.once_each * cycle;
  s.vpu_seconds = t.vector_ops / steps / c.vpu_rate();
  s.vmem_bytes = t.vmem_bytes / steps + s.load_bytes + s.store_bytes;
  s.vmem_seconds = s.vmem_bytes / c.vmem_bandwidth;
  ph.mxu_macs = t.macs;
  ph.vector_ops = t.vector_ops;
  ph.folds = std::int64_t(t.folds);
  ph.fold_efficiency = t.folds > 0 ? t.cells_used / t.folds : 0;
  return ph;
}

}  // namespace

BlockFootprint operand_footprint(const GemmProblem& p, std::int64_t bm, std::int64_t bn, std::int64_t bk) {
  return {2 * double(bm) * bk * p.a_bytes + (p.dequant_a ? double(bm) * bk * kDequantBytes : 0),
          2 * double(bn) * bk * p.b_bytes + (p.dequant_b ? double(bn) * bk * kDequantBytes : 0),
          double(bm) * bn * kAccumulatorBytes + 2 * double(bm) * bn * p.out_bytes};
}

double block_footprint(const GemmProblem& p, std::int64_t bm, std::int64_t bn, std::int64_t bk) {
  BlockFootprint f = operand_footprint(p, bm, bn, bk);
  return f.a + f.b + f.out;
}

BlockFootprint stored_operands(const GemmProblem& p, std::int64_t bm, std::int64_t bn, std::int64_t bk,
                               const SystolicChip& chip) {
  std::int64_t tile = chip.vpu_sublanes;
  return operand_footprint(p, std::min(bm, round_up(p.m, tile)), std::min(bn, round_up(p.n, tile)),
                           std::min(bk, round_up(p.k, tile)));
}

double stored_footprint(const GemmProblem& p, std::int64_t bm, std::int64_t bn, std::int64_t bk,
                        const SystolicChip& chip) {
  BlockFootprint f = stored_operands(p, bm, bn, bk, chip);
  return f.a + f.b + f.out;
}

double smallest_footprint(const GemmProblem& p, const SystolicChip& chip) {
  Units u = units(chip);
  return stored_footprint(p, u.m, u.n, u.k, chip);
}

namespace {
// Group packings to try for a block: 1, and when the block spans a whole group, the powers of two
// that divide the groups evenly, then all the groups (packs of equal size, so the per-step average
// the pipeline runs is every step's real work; the chooser's estimate weighs fewer steps against a
// longer pipeline fill). Increasing, so a pack that overflows VMEM ends the search.
std::vector<std::int64_t> pack_candidates(const GemmProblem& o, std::int64_t bm, std::int64_t bn, std::int64_t bk) {
  std::vector<std::int64_t> out{1};
  if (bm < o.m || bn < o.n || bk < o.k) return out;
  for (std::int64_t g = 2; g < o.groups; g *= 2)
    if (o.groups % g == 0) out.push_back(g);
  if (o.groups > 1) out.push_back(o.groups);
  return out;
}

// Whether `packed` blocks fit VMEM: the one scratchpad, or each operand its own (split sizes; the
// oriented problem's a is the ifmap unless fed transposed).
bool fits(const GemmProblem& o, std::int64_t bm, std::int64_t bn, std::int64_t bk, std::int64_t packed,
          bool transposed, const SystolicChip& chip) {
  BlockFootprint f = stored_operands(o, bm, bn, bk, chip);
  double g = double(packed);
  if (!chip.split_vmem()) return g * (f.a + f.b + f.out) <= chip.vmem_bytes;
  auto within = [](double need, double size) { return size <= 0 || need <= size; };
  double ifmap = transposed ? f.b : f.a, filter = transposed ? f.a : f.b;
  return within(g * ifmap, chip.ifmap_vmem) && within(g * filter, chip.filter_vmem) && within(g * f.out, chip.ofmap_vmem);
}

bool orientation_allowed(Orientation o, bool transposed) {
  return o == Orientation::automatic || transposed == (o == Orientation::transposed);
}
}  // namespace

std::optional<GemmBlocking> choose_gemm_blocking(const GemmProblem& p, const SystolicChip& chip) {
  std::optional<GemmBlocking> best;
  Units u = units(chip);
  for (bool transposed : {false, true}) {
    if (!orientation_allowed(chip.orientation, transposed)) continue;
    GemmProblem o = oriented(p, transposed);
    std::int64_t fixed_m = transposed ? chip.block_n : chip.block_m, fixed_n = transposed ? chip.block_m : chip.block_n;
    for (std::int64_t bm : candidates(o.m, u.m, fixed_m))
      for (std::int64_t bn : candidates(o.n, u.n, fixed_n))
        for (std::int64_t bk : candidates(o.k, u.k, chip.block_k))
          for (std::int64_t packed : pack_candidates(o, bm, bn, bk)) {
            double footprint = double(packed) * stored_footprint(o, bm, bn, bk, chip);
            if (!fits(o, bm, bn, bk, packed, transposed, chip)) break;  // larger packs need more
            bool spans_k = bk >= o.k;
            for (int resident = 0; resident < (spans_k && o.may_keep_resident ? 3 : 1); ++resident) {
              GemmBlocking b{bm, bn, bk, transposed, resident == 1, resident == 2, 0, footprint, packed};
              b.estimate = estimate_phase(build(o, b, chip), chip);
              if (!best || b.estimate < best->estimate) best = flipped(b);
            }
          }
  }
  return best;
}

Phase gemm_phase(const GemmProblem& p, const GemmBlocking& b, const SystolicChip& chip, std::string name) {
  Phase ph = build(oriented(p, b.transposed), flipped(b), chip);
  ph.name = std::move(name);
  ph.config = fmt::format("{} {} {}x{}x{}{}{}{} steps {} folds {}", ph.name, dataflow_name(chip.dataflow), b.bm,
                          b.bn, b.bk, b.transposed ? " transposed" : "",
                          b.b_resident ? " W-resident" : b.a_resident ? " x-resident" : "",
                          b.groups_per_step > 1 ? fmt::format(" {} groups/step", b.groups_per_step) : std::string(),
                          ph.total_steps(), ph.folds);
  return ph;
}

}  // namespace hwsim
