#pragma once
// One training step (the `train` workload) as one op graph: every micro-batch's forward, loss and
// backward on every pipeline stage, the gradient reduction and the optimizer, explicitly, for one
// representative device per stage (Op::stage; the tp·dp ranks of a stage do identical sharded
// work; shapes are per device). Insertion order is execution order; edges are data dependencies.
//
// Per micro-batch j (names get "mb<j>." in front when microbatches > 1):
//   forward    the inference forward graph (lower_parallel_llm_step: tp splits and collectives,
//              pp stages and send_recv; prefill-shaped, micro_batch sequences of seq tokens,
//              causal) with three changes: the KV-cache append is dropped (no cache: attention
//              takes K and V straight from the projection/RoPE), the LM head runs on every
//              position (M = micro_batch · seq, not one row per sequence), and the logits are not
//              gathered; then "loss" (softmax cross-entropy over this rank's logits: reads them,
//              writes fp32 loss and log-sum-exp per token). tp > 1: Megatron's vocabulary-parallel
//              cross-entropy, "loss.max_all_reduce" (4 B/token) before and "loss.sum_all_reduce"
//              (8 B/token: target logit and sum of exponentials) after, axis tp.
//   backward   groups in reverse (head, L<n-1> … L0, embed) on each stage; per group, with
//              checkpoint=full and a layer, first its forward again ("recompute.L<i>.<op>": the
//              layer's input was kept, everything else but the pipeline send is recomputed), then
//              each op's backward in reverse op order ("bwd.<op>", rules in train_backward.h).
//              "bwd.loss" reads the logits and writes their gradient (softmax − one-hot). An op's
//              backward depends on the backward ops of its forward consumers and on its saved
//              forward (or recomputed) op. tp > 1: the forward all_reduces pass the gradient
//              through, and each column-parallel GEMM (qkv_proj, gate_up/up_proj, expert_gate_up,
//              lm_head) gets "bwd.<op>.dx_all_reduce" (tp, its dX bytes = the forward all_reduce's)
//              after its dX, async so its dW overlaps it (Megatron's default). pp > 1: the
//              backward of "L<j>.send_recv" is "bwd.L<j>.send_recv", same bytes, on the SENDING
//              stage of the forward (the stage that receives the gradient), depending on the next
//              stage's backward: it carries the gradient from stage s+1 to s (the runner must run
//              a "bwd." send_recv from stage+1 to stage).
//   gradients  dp > 1 only, per stage. Parameter gradients fill buckets in the order the backward
//              produces them (PyTorch DDP: parameters in reverse order of use, `bucket` bytes
//              each, 25 MiB by default); a bucket closes at the first gradient that brings it to
//              `bucket` bytes or more, and its collective is issued right after that backward op,
//              async, depending on the ops that produced its gradients: "grad.bucket<k>.all_reduce"
//              (zero 0/1: the full gradient on every rank) or "grad.bucket<k>.reduce_scatter"
//              (zero 2/3: each rank keeps its 1/dp shard), bytes = the bucket, axis dp. With
//              microbatches > 1, zero 0/1 reduce only in the last micro-batch (DDP no_sync; the dW
//              GEMMs accumulate), zero 2/3 in every micro-batch (DeepSpeed reduces each
//              micro-step, keeping only its gradient shard).
//   zero=3     each parameter group (embed, L<i>, head) is all-gathered before its forward and
//              again before its backward (and recompute) use: "zero3.gather.<group>" and
//              "bwd.zero3.gather.<group>", async, issued one group ahead (prefetch), the group's
//              ops depending on it; bytes = the group's full 16-bit weights, axis dp. Freed after
//              use (train_memory.h counts two gathered groups).
// Schedule: 1F1B (PipeDream-Flush, Narayanan et al. 2021, as in Megatron-LM): stage s runs
// min(pp − s − 1, microbatches) forwards, then one forward and one backward alternately, then the
// remaining backwards; pp = 1 gives F0 B0 F1 B1 … (gradient accumulation).
// After the last micro-batch, per stage:
//   "optimizer.adam"  one StreamOp over the parameters this device updates (all of its own, or
//              1/dp of them with zero ≥ 1): per parameter it reads the fp32 master weight (4 B),
//              the gradient (2 B in bf16), m (4 B) and v (4 B) and writes the master weight, m, v
//              (12 B) and the 16-bit copy the next forward uses (2 B): 14 + 14 = 28 B per parameter
//              (weights=fp32: reads param, grad, m, v = 16 B, writes param, m, v = 12 B: also 28 B),
//              and kAdamFlopsPerParam vector FLOPs (torch's fused AdamW: moments 7, bias corrections
//              2, sqrt, +eps, divide, learning rate, weight decay 2, update = 16). It waits for every
//              gradient collective. Gradient clipping's norm and the tied-embedding all-reduce
//              between the first and last stage are not modelled.
//   "optimizer.all_gather"  zero 1/2 with dp > 1: the updated 16-bit weights gathered from their
//              shards (bytes = this device's full 16-bit weights, axis dp). zero=3 gathers per
//              group in the next step's forward instead.
// dp = 1: no dp collectives (tp and pp ones remain).
#include <vector>

#include "ops/op_graph.h"
#include "workloads/llm/train_run.h"

namespace hwsim {

constexpr double kAdamFlopsPerParam = 16;

// The step graph (rules above), for a run parse_train_run accepted.
OpGraph lower_train_step(const TrainRun& run);

// Parameters (elements) one device of `stage` holds, as attributed to the step's ops: what its
// optimizer updates before ZeRO sharding (equals train_stage_device_params(run, stage)).
double train_graph_params(const TrainRun& run, int stage = 0);

}  // namespace hwsim
