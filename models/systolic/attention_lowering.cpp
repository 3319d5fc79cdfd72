#include "models/systolic/attention_lowering.h"

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

Phase fused(const AttentionOp& a, const std::string& op, const SystolicChip& c) {
  GemmProblem qk = scores_problem(a, c), pv = values_problem(a, c);
  GemmBlocking b = choose_or_fail(qk, op, c);
  // The flash kernel holds the Q·Kᵀ block and the P·V block (scores, V, output) at once, for each
  // of the groups packed into one step.
  GemmBlocking pv_block{b.bm, pv.n, b.bn, false, false, false, 0,
                        double(b.groups_per_step) * block_footprint(pv, b.bm, pv.n, b.bn), b.groups_per_step};
  if (b.vmem_footprint + pv_block.vmem_footprint > c.vmem_bytes)
    workload_error(fmt::format("{}: fused attention's Q·Kᵀ and P·V blocks ({}x{} queries x keys) need {:.0f} KiB of "
                               "VMEM but memory.vmem.size of {} is {:.0f} KiB (use systolic.attention=materialized)",
                               op, b.bm, b.bn, (b.vmem_footprint + pv_block.vmem_footprint) / 1024, c.name, c.vmem_bytes / 1024));
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
  ph.vector_ops = scores * c.softmax_ops + f * (s.vector_ops + v.vector_ops);
  st.vpu_seconds = ph.vector_ops / steps / c.vpu_rate();
  st.vmem_bytes = f * (s.step.vmem_bytes * s_steps + v.step.vmem_bytes * v_steps) / steps;
  st.vmem_seconds = st.vmem_bytes / c.vmem_bandwidth;
  ph.mxu_macs = f * (s.mxu_macs + v.mxu_macs);
  ph.folds = std::llround(f * double(s.folds + v.folds));
  ph.fold_efficiency = (s.fold_efficiency * s.folds + v.fold_efficiency * v.folds) / double(std::max<std::int64_t>(1, s.folds + v.folds));
  ph.config = fmt::format("flash q{}xkv{} steps {} visible {:.2f}", b.bm, b.bn, ph.total_steps(), f);
  return ph;
}

}  // namespace

std::vector<Phase> attention_phases(const AttentionOp& a, const std::string& op_name, const SystolicChip& chip) {
  if (chip.attention == AttentionMode::fused) return {fused(a, op_name, chip)};
  return materialized(a, op_name, chip);
}

}  // namespace hwsim
