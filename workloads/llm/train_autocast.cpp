#include "workloads/llm/train_autocast.h"

#include <variant>

namespace hwsim {

namespace {

constexpr double kFp32 = 4;  // bytes of the fp32 copies: parameters, gradients, residual stream
// log_softmax over rows longer than shared memory holds: max, sum of exponentials, then the
// normalised write (PyTorch's cunn_SoftMaxForward; the stream lowering's "softmax" class walks them).
// Its backward reads the incoming gradient and the output and writes one row (cunn_SoftMaxBackward);
// the nll_loss backward before it writes the whole gradient (zeros, then -1/T at each target).
constexpr double kLogSoftmaxFlopsPerLogit = 4, kLogSoftmaxBackwardFlopsPerLogit = 3;

StreamOp stream(double read, double written, double flops, std::int64_t rows, double element_bytes) {
  StreamOp s;
  s.bytes_read = read, s.bytes_written = written, s.flops = flops, s.rows = rows;
  s.element_bytes = element_bytes;
  return s;
}

// A cast of `elements` values from `from` to `to` bytes each: one kernel over flat memory. PyTorch
// narrows fp32 to 16 bits on a vectorised kernel of its own (bfloat16_copy_kernel_cuda) and widens
// on the generic copy with per-element load and store casts (direct_copy_kernel_cuda's
// unrolled_elementwise_kernel, LoadWithCast / StoreWithCast): the unvectorised loop (StreamOp).
Op cast(const std::string& name, double elements, double from, double to, int stage) {
  StreamOp s = stream(elements * from, elements * to, 0, 1, from);
  s.unvectorized = to > from;
  Op op(name, "cast", s);
  op.stage = stage;
  return op;
}

Op with_stage(Op op, int stage) {
  op.stage = stage;
  return op;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

bool uses_autocast(const TrainRun& run) {
  return run.dtypes.weights == DType::fp32 && bytes_per_element(run.dtypes.act) == 2;
}

AutocastOps autocast_linear(Op& op, bool fp32_input, bool bias, const TrainRun& run) {
  GemmOp& g = std::get<GemmOp>(op.shape);
  // The parameter is fp32 whatever the graph's weight dtype says (a tied head reads the table).
  const double a = bytes_per_element(run.dtypes.act), w = kFp32;
  const double weights = double(g.n) * double(g.k) * double(g.groups), inputs = double(g.m) * double(g.k);
  const double outputs = double(g.m) * double(g.n) * double(g.groups), n = double(g.n) * double(g.groups);
  g.b = run.dtypes.act;
  AutocastOps out;
  if (fp32_input) out.prologue.push_back(cast(op.name + ".input_cast", inputs, kFp32, a, op.stage));
  out.prologue.push_back(cast(op.name + ".weight_cast", weights, w, a, op.stage));
  if (bias) out.prologue.push_back(cast(op.name + ".bias_cast", n, w, a, op.stage));
  out.grad_ops.push_back(cast(op.name + ".weight_grad_cast", weights, a, kFp32, op.stage));
  out.grad_param = 0;
  if (bias) {
    // The bias gradient: the output gradient summed over its rows (one sum per output column).
    out.grad_ops.push_back(with_stage(Op(op.name + ".bias_grad", "reduction",
                                         stream(outputs * a, n * a, outputs, std::int64_t(n), a)), op.stage));
    out.grad_ops.push_back(cast(op.name + ".bias_grad_cast", n, a, kFp32, op.stage));
  }
  if (fp32_input) {
    out.grad_ops.push_back(cast(op.name + ".input_grad_cast", inputs, a, kFp32, op.stage));
    out.grad_input = int(out.grad_ops.size()) - 1;
  }
  // AccumulateGrad: a later micro-batch's fp32 gradient added into .grad (read both, write one).
  out.accumulate.push_back(with_stage(Op(op.name + ".grad_accumulate", "elementwise",
                                         stream(2 * kFp32 * (weights + (bias ? n : 0)),
                                                kFp32 * (weights + (bias ? n : 0)), weights, 1, kFp32)),
                                      op.stage));
  return out;
}

void autocast_residual_stream(Op& op, const TrainRun& run) {
  auto* s = std::get_if<StreamOp>(&op.shape);
  if (!s) return;
  const double scale = kFp32 / bytes_per_element(run.dtypes.act);
  if (op.op_class == "norm" || op.name == "embed") {
    // Rows (and the norm's γ, β or the embedding's table rows) in fp32.
    s->bytes_read *= scale, s->bytes_written *= scale;
    s->element_bytes = kFp32;
  } else if (ends_with(op.name, "attn_residual") || ends_with(op.name, "ffn_residual")) {
    // skip (fp32) + branch (act) → fp32: of the two act rows read, one becomes fp32.
    s->bytes_read *= (1 + scale) / 2, s->bytes_written *= scale;
    s->element_bytes = kFp32;
    s->unvectorized = true;  // mixed dtypes take PyTorch's unvectorised loop (StreamOp)
  }
}

AutocastOps autocast_loss(Op& loss, std::int64_t tokens, std::int64_t vocab, const TrainRun& run) {
  const double a = bytes_per_element(run.dtypes.act), logits = double(tokens) * double(vocab);
  const int stage = loss.stage;
  AutocastOps out;
  out.prologue.push_back(cast(loss.name + ".logits_cast", logits, a, kFp32, stage));
  loss = with_stage(Op(loss.name, "softmax", stream(logits * kFp32, logits * kFp32, kLogSoftmaxFlopsPerLogit * logits,
                                                      tokens, kFp32)), stage);
  out.grad_ops.push_back(with_stage(Op(loss.name + ".grad_fill", "elementwise",
                                       stream(0, logits * kFp32, 0, 1, kFp32)), stage));
  out.grad_ops.push_back(with_stage(Op(loss.name + ".log_softmax_backward", "elementwise",
                                       stream(2 * logits * kFp32, logits * kFp32,
                                              kLogSoftmaxBackwardFlopsPerLogit * logits, tokens, kFp32)), stage));
  out.grad_ops.push_back(cast(loss.name + ".logits_grad_cast", logits, kFp32, a, stage));
  out.grad_input = int(out.grad_ops.size()) - 1;
  return out;
}

}  // namespace hwsim
