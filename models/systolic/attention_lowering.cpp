#include "models/systolic/attention_lowering.h"

#include <optional>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "models/systolic/gemm_blocking.h"
#include "models/systolic/gemm_lowering.h"
#include "models/systolic/pipeline_estimate.h"
#include "models/systolic/vector_lowering.h"
#include "sim/error.h"

namespace hwsim {
namespace {

std::int64_t kv_read(const AttentionOp& a) {
  return a.window > 0 ? std::min(a.kv_len, a.window + a.q_len - 1) : a.kv_len;
}

// The two GEMMs per (sequence, KV head).
GemmProblem scores_problem(const AttentionOp& a, const SystolicChip& c) {
  GemmProblem p;
  p.m = a.q_len * (a.heads / a.kv_heads);
  p.n = kv_read(a);
  p.k = a.head_dim;
  p.groups = a.batch * a.kv_heads;
  p.a_bytes = p.out_bytes = bytes_per_element(a.dtype);
  p.b_bytes = bytes_per_element(a.kv_dtype);
  p.macs_per_cell = c.macs_per_cell[std::size_t(a.dtype)];
  p.dequant_b = a.kv_dtype != a.dtype;
  return p;
}

GemmProblem values_problem(const AttentionOp& a, const SystolicChip& c) {
  GemmProblem p = scores_problem(a, c);
  p.n = a.head_dim;
  p.k = kv_read(a);
  return p;
}

std::vector<Phase> materialized(const AttentionOp& a, const std::string& op, const SystolicChip& c) {
  GemmProblem qk = scores_problem(a, c), pv = values_problem(a, c);
  double scores = double(qk.groups) * double(qk.m) * double(qk.n);
  VectorWork softmax{scores * qk.out_bytes, scores * qk.out_bytes, scores * c.softmax_ops};
  std::optional<Phase> pass = vector_phase(softmax, c, "softmax");
  if (!pass) workload_error(fmt::format("{}: the softmax pass does not fit memory.vmem.size of {}", op, c.name));
  return {lower_gemm_problem(qk, op, "qk", c), std::move(*pass), lower_gemm_problem(pv, op, "pv", c)};
}

// Fraction of (query, key) pairs a flash kernel computes (blocks wholly masked are skipped).
double visible_fraction(const AttentionOp& a) {
  double all = double(a.q_len) * double(kv_read(a));
  return all > 0 ? std::min(1.0, attention_pairs(a) / all) : 0;
}

// The largest pack of groups, at most `wanted`, whose blocks fit `vmem` at `per_group` bytes each:
// `wanted` halved (packs stay powers of two that divide the groups, or all of them) down to 1.
std::int64_t fitting_pack(std::int64_t groups, std::int64_t wanted, double per_group, double vmem) {
  std::int64_t g = wanted;
  while (g > 1 && double(g) * per_group > vmem) {
    std::int64_t pow2_divisor = groups & -groups;  // largest power of two dividing the groups
    g = (g & (g - 1)) == 0 ? g / 2 : std::min(g - 1, pow2_divisor);
  }
  return g;
}

// The Q·Kᵀ blocking of a flash kernel, chosen so that the Q·Kᵀ and P·V blocks (scores, V, output)
// fit VMEM together, for each of the groups packed into one step: the pack shrinks first, then the
// VMEM the Q·Kᵀ choice may use, until both fit. `pv_block` receives the matching P·V blocking.
GemmBlocking flash_blocking(const GemmProblem& qk, const GemmProblem& pv, const std::string& op,
                            const SystolicChip& c, GemmBlocking& pv_block) {
  constexpr int kMaxTries = 16;  // each try shrinks the budget by the overflow ratio: converges fast
  SystolicChip budget = c;
  GemmProblem scores = qk;
  scores.may_keep_resident = false;  // K (and V) stream again for every query block
  double needed = 0;
  for (int attempt = 0; attempt < kMaxTries; ++attempt) {
    std::optional<GemmBlocking> choice = choose_gemm_blocking(scores, budget);
    if (!choice) break;
    GemmBlocking b = *choice;
    double qk_bytes = stored_footprint(qk, b.bm, b.bn, b.bk, c), pv_bytes = stored_footprint(pv, b.bm, pv.n, b.bn, c);
    b.groups_per_step = fitting_pack(qk.groups, b.groups_per_step, qk_bytes + pv_bytes, c.vmem_bytes);
    b.vmem_footprint = double(b.groups_per_step) * qk_bytes;
    pv_block = GemmBlocking{b.bm, pv.n, b.bn, false, false, false, 0, double(b.groups_per_step) * pv_bytes,
                            b.groups_per_step};
    needed = b.vmem_footprint + pv_block.vmem_footprint;
    if (needed <= c.vmem_bytes) return b;
    budget.vmem_bytes *= c.vmem_bytes / needed;
  }
  workload_error(fmt::format("{}: fused attention's smallest Q·Kᵀ and P·V blocks need {:.0f} KiB of VMEM but "
                             "memory.vmem.size of {} is {:.0f} KiB (use systolic.attention=materialized)",
                             op, (needed > 0 ? needed : smallest_footprint(qk, c)) / 1024, c.name, c.vmem_bytes / 1024));
}

Phase fused(const AttentionOp& a, const std::string& op, const SystolicChip& c) {
  GemmProblem qk = scores_problem(a, c), pv = values_problem(a, c);
  GemmBlocking pv_block;
  GemmBlocking b = flash_blocking(qk, pv, op, c, pv_block);
  Phase s = gemm_phase(qk, b, c, "qk");
  Phase v = gemm_phase(pv, pv_block, c, "pv");
  double f = visible_fraction(a);
  double q_blocks = std::ceil(double(qk.m) / double(b.bm)), kv_blocks = std::ceil(double(qk.n) / double(b.bn));
  std::int64_t per_group = std::max<std::int64_t>(std::int64_t(q_blocks), std::llround(q_blocks * kv_blocks * f));
  Phase ph;
  ph.name = "attention";
  std::int64_t packs = (qk.groups + b.groups_per_step - 1) / b.groups_per_step;
  ph.steps = split_over_cores(packs, c.tensorcores, per_group);
  double steps = double(ph.total_steps());
  double kv_bytes = 2.0 * qk.groups * q_blocks * double(qk.n) * qk.k * qk.b_bytes * f;
  double q_bytes = double(qk.groups) * qk.m * qk.k * qk.a_bytes, o_bytes = q_bytes / qk.a_bytes * qk.out_bytes;
  double scores = double(a.batch) * a.heads * attention_pairs(a);
  double s_steps = double(s.total_steps()), v_steps = double(v.total_steps());
  PipelineStep& st = ph.step;
  st.load_bytes = (kv_bytes + q_bytes) / steps;
  st.store_bytes = o_bytes / steps;
  st.mxu_seconds = f * (s.step.mxu_seconds * s_steps + v.step.mxu_seconds * v_steps) / steps;
  st.fill_seconds = f * (s.step.fill_seconds * s_steps + v.step.fill_seconds * v_steps) / steps;
  ph.once_seconds = std::max(s.once_seconds, v.once_seconds);
  ph.vector_ops = scores * c.softmax_ops + f * (s.vector_ops + v.vector_ops);
  st.vpu_seconds = ph.vector_ops / steps / c.vpu_rate();
  st.vmem_bytes = f * (s.step.vmem_bytes * s_steps + v.step.vmem_bytes * v_steps) / steps;
  st.vmem_seconds = st.vmem_bytes / c.vmem_bandwidth;
  ph.mxu_macs = f * (s.mxu_macs + v.mxu_macs);
  ph.folds = std::llround(f * double(s.folds + v.folds));
  ph.fold_efficiency = (s.fold_efficiency * s.folds + v.fold_efficiency * v.folds) / double(std::max<std::int64_t>(1, s.folds + v.folds));
  ph.config = fmt::format("flash q{}xkv{} ({} query rows){} steps {} visible {:.2f}", b.bm, b.bn, qk.m,
                          b.groups_per_step > 1 ? fmt::format(" {} groups/step", b.groups_per_step) : std::string(),
                          ph.total_steps(), f);
  return ph;
}

}  // namespace

std::vector<Phase> attention_phases(const AttentionOp& a, const std::string& op_name, const SystolicChip& chip) {
  if (chip.attention == AttentionMode::fused) return {fused(a, op_name, chip)};
  return materialized(a, op_name, chip);
}

}  // namespace hwsim
