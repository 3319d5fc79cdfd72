#include "models/systolic/op_lowering.h"

#include <fmt/format.h>
#include <stdexcept>

#include "models/systolic/attention_lowering.h"
#include "models/systolic/gemm_lowering.h"
#include "models/systolic/vector_lowering.h"
#include "sim/error.h"

namespace hwsim {
namespace {

template <class... F> struct Overload : F... { using F::operator()...; };
template <class... F> Overload(F...) -> Overload<F...>;

void require(const SystolicChip& chip, const std::string& op, DType t, const char* what) {
  if (!chip.supports(t))
    workload_error(fmt::format("{}: {} {} is not supported by {} (systolic.mxu.macs_per_cell.{} is 0)", op,
                               dtype_name(t), what, chip.name, dtype_name(t)));
}

// FP8 (and block-scaled FP6/FP4) storage needs the chip's conversion for that format; int8/int4
// storage is widened on the vector unit.
void require_storage(const SystolicChip& chip, const std::string& op, DType t, const char* what) {
  if (t == DType::fp8 || t == DType::fp6 || t == DType::fp4) require(chip, op, t, what);
}

std::string shape_key(const Op& op) {
  std::string key = std::visit(Overload{
      [](const GemmOp& g) { return fmt::format("g{},{},{},{},{},{},{}", g.m, g.n, g.k, g.groups, int(g.a), int(g.b), int(g.out)); },
      [](const StreamOp& s) { return fmt::format("s{},{},{}", s.bytes_read, s.bytes_written, s.flops); },
      [](const AttentionOp& a) {
        return fmt::format("a{},{},{},{},{},{},{},{},{},{}", a.batch, a.heads, a.kv_heads, a.head_dim, a.q_len, a.kv_len,
                           a.causal, a.window, int(a.dtype), int(a.kv_dtype));
      },
      [](const CollectiveOp&) -> std::string {
        throw std::logic_error("a collective reached a device: the system runner runs it on links");
      },
      [](const ConvOp&) -> std::string {
        throw std::logic_error("a conv reached shape_key: OpLowering::lower runs it as its implicit GEMM");
      },
      [](const RecordedOp&) -> std::string {
        throw std::logic_error("a recorded op reached a device: the step executor replays it");
      },
  }, op.shape);
  return key + fmt::format("|{},{},{}", op.fused.vector_flops, op.fused.extra_bytes_read, op.fused.extra_bytes_written);
}

// Fused elementwise work on the last phase: ops on the vector unit, bytes with the step's DMAs.
void add_fused(Phase& ph, const FusedWork& f, const SystolicChip& c) {
  double steps = double(ph.total_steps());
  if (f.empty() || steps == 0) return;
  PipelineStep& s = ph.step;
  s.vpu_seconds += f.vector_flops / steps / c.vpu_rate();
  s.load_bytes += f.extra_bytes_read / steps;
  s.store_bytes += f.extra_bytes_written / steps;
  s.vmem_bytes += 2 * (f.extra_bytes_read + f.extra_bytes_written) / steps;
  s.vmem_seconds = s.vmem_bytes / c.vmem_bandwidth;
  ph.vector_ops += f.vector_flops;
}

DType op_dtype(const Op& op) {
  if (const auto* g = std::get_if<GemmOp>(&op.shape)) return systolic_math_dtype(*g);
  if (const auto* a = std::get_if<AttentionOp>(&op.shape)) return a->dtype;
  return DType::fp32;  // the vector unit computes in f32
}

}  // namespace

void check_dtypes(const Op& op, const SystolicChip& chip) {
  if (const auto* g = std::get_if<GemmOp>(&op.shape)) {
    require(chip, op.name, systolic_math_dtype(*g), "math");
    require_storage(chip, op.name, g->b, "weights");
  } else if (const auto* a = std::get_if<AttentionOp>(&op.shape)) {
    require(chip, op.name, a->dtype, "attention math");
    require_storage(chip, op.name, a->kv_dtype, "KV cache");
  }
}

std::vector<Phase> OpLowering::phases_of(const Op& op, const std::string& key) {
  auto hit = cache_.find(key);
  if (hit != cache_.end()) return hit->second;
  std::vector<Phase> phases;
  if (const auto* g = std::get_if<GemmOp>(&op.shape)) {
    phases.push_back(lower_gemm_problem(gemm_problem(*g, chip_), op.name, "gemm", chip_));
    add_fused(phases.back(), op.fused, chip_);
  } else if (const auto* s = std::get_if<StreamOp>(&op.shape)) {
    VectorWork w{s->bytes_read + op.fused.extra_bytes_read, s->bytes_written + op.fused.extra_bytes_written,
                 s->flops + op.fused.vector_flops};
    std::optional<Phase> ph = vector_phase(w, chip_, "vector");
    if (!ph) workload_error(fmt::format("{}: no vector chunk fits memory.vmem.size of {}", op.name, chip_.name));
    phases.push_back(std::move(*ph));
  } else if (const auto* a = std::get_if<AttentionOp>(&op.shape)) {
    phases = attention_phases(*a, op.name, chip_);
    add_fused(phases.back(), op.fused, chip_);
  }
  cache_.emplace(key, phases);
  return phases;
}

// A conv runs as XLA lowers it for the MXU: its implicit GEMM (ops/conv.h); a depthwise conv as a
// vector pass. The record keeps the conv's name and class.
static Op as_implicit_gemm(const Op& op, const ConvOp& c) {
  check_conv(c, op.name);
  Op lowered = op;
  if (is_depthwise(c)) lowered.shape = depthwise_as_stream(c);
  else lowered.shape = conv_as_gemm(c);
  return lowered;
}

OpPlan OpLowering::lower(const Op& op) {
  if (const auto* c = std::get_if<ConvOp>(&op.shape)) return lower(as_implicit_gemm(op, *c));
  check_dtypes(op, chip_);
  OpPlan plan;
  plan.name = op.name;
  plan.op_class = op.op_class;
  DType math = op_dtype(op);
  plan.dtype = std::string(dtype_name(math));
  plan.flops = op_flops(op);
  plan.min_bytes = op_min_bytes(op);
  bool vector = std::holds_alternative<StreamOp>(op.shape);
  plan.mxu_peak_flop_rate = vector ? 0 : chip_.peak_flop_rate(math);
  plan.peak_flop_rate = vector ? chip_.vpu_rate() * chip_.tensorcores : plan.mxu_peak_flop_rate;
  plan.phases = phases_of(op, shape_key(op));
  return plan;
}

}  // namespace hwsim
