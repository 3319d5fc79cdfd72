#pragma once
// PyTorch's automatic mixed precision (torch.autocast) in a training step, as eager PyTorch runs
// it. A run asks for it with fp32 parameters and 16-bit activations (`weights=fp32,act=bf16`):
// parameters, their gradients and the residual stream stay fp32, and the matmuls run in the act
// dtype on copies that autocast makes (measured on an H200, data/measurements/h200_train.jsonl:
// 20-25 cast kernels per GPT-2 layer and step, 10 % of the step).
//   - A linear layer casts its fp32 weight (and bias) to act before every call: in the forward and
//     again in checkpoint=full's recompute (autocast's cast cache lives for one forward region);
//     and its input when that is fp32 (a norm's output: norms run in fp32 under autocast).
//   - Its backward casts the weight (and bias) gradient back to fp32 (the parameter's .grad; a
//     later micro-batch adds its gradient into it) and, for a cast input, the input gradient.
//     With a bias, the bias gradient is a sum over the tokens (a reduction kernel).
//   - Norms, the embedding and the residual adds move fp32 rows (the adds read the branch in act).
//   - The loss, F.cross_entropy(logits.float()), casts the logits to fp32 and takes log_softmax in
//     fp32 (PyTorch's cunn_SoftMaxForward: rows this long are walked three times); its backward
//     fills the fp32 gradient of the log-probabilities (nll_loss's backward), runs log_softmax's
//     backward (reads that gradient and the output, writes the input's gradient) and casts the
//     logits' gradient back to act.
// A cast is one elementwise kernel (op_class "cast") reading the source and writing the copy.
#include <string>
#include <vector>

#include "ops/op.h"
#include "workloads/llm/train_run.h"

namespace hwsim {

// The ops autocast adds around one forward op.
struct AutocastOps {
  std::vector<Op> prologue;    // forward (and recompute), before the op, each after the one before
  std::vector<Op> grad_ops;    // backward, after the op's own backward ops, each after the one before
  std::vector<Op> accumulate;  // backward of a micro-batch after the first: after grad_ops
  int grad_param = -1;         // index in grad_ops of the parameter gradient's producer (-1: the op's own)
  int grad_input = -1;         // index in grad_ops of the input gradient's producer (-1: the op's own)
};

// Whether the run trains under autocast: fp32 parameters with 16-bit activations.
bool uses_autocast(const TrainRun& run);

// A linear layer's GEMM `op` (a weight GEMM of the forward graph) under autocast: its weight
// operand becomes the act copy, and the casts around it. `fp32_input`: its input is a norm's
// output; `tokens`: rows of its input; `bias`: the layer has a bias vector.
AutocastOps autocast_linear(Op& op, bool fp32_input, bool bias, const TrainRun& run);

// A stream op of the residual stream (norm, embedding, residual add) moved to fp32 rows.
void autocast_residual_stream(Op& op, const TrainRun& run);

// The loss under autocast: `loss` (the template's cross-entropy over `tokens` rows of `vocab`
// logits) becomes log_softmax in fp32, after the logits' cast (prologue); grad_ops replace its
// backward entirely (fill, log_softmax backward, cast back), grad_input the last.
AutocastOps autocast_loss(Op& loss, std::int64_t tokens, std::int64_t vocab, const TrainRun& run);

}  // namespace hwsim
