#pragma once
// One training step request (the `train` workload), parsed from a spec. Shapes only: no hardware.
//   train:model=M,batch=B,seq=S[,dp=,tp=,pp=,microbatches=,zero=0|1|2|3,checkpoint=none|full|selective,
//         sequence_parallel=false,
//         weights=,act=,reduce=,loss=fp32|act,optimizer=adam,bucket=25MiB,zero_impl=deepspeed|fsdp2,kernels=]
//         [,architecture fields]
// batch is the global batch: sequences per optimizer step over all data-parallel replicas; each
// replica runs `microbatches` micro-batches of batch / (dp · microbatches) sequences (gradient
// accumulation), so dp · microbatches must divide batch.
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/llm/architecture.h"
#include "workloads/llm/llm_run.h"
#include "workloads/workload.h"

namespace hwsim {

class WorkloadSpec;

// none: every activation kept; full: each layer's input kept and the layer run again before its
// backward; selective (Korthikanti et al. 2022): the core attention run again before its backward,
// its inputs not kept beyond what the backward needs (with FlashAttention the forward keeps no
// scores, so it saves little memory and costs one attention forward per layer).
enum class Checkpointing { none, full, selective };

// How zero=3 shards and reduces (docs/systems.md, "Training on several GPUs"). deepspeed: every
// group (embed, each layer, head) gathered before its forward and again before its backward,
// gradients reduce-scattered in `bucket`-sized buckets as the backward produces them. fsdp2
// (PyTorch's fully_shard on every block, then on the root): each block one unit, reduce-scattered
// as one collective right after its backward; the root unit (embedding, final norm, head) gathered
// once at the start of the step, kept through the backward (the root is not resharded after its
// forward) and reduce-scattered after the embedding's backward, exposed.
enum class ZeroImpl { deepspeed, fsdp2 };

struct TrainRun {
  ModelArchitecture arch;
  std::int64_t batch = 1;   // global sequences per optimizer step
  std::int64_t seq = 1;     // tokens per sequence
  Parallelism parallel;     // tp, pp, dp, microbatches (ep stays 1)
  int zero = 0;             // ZeRO stage (Rajbhandari et al. 2020): 0 (DDP), 1, 2, 3
  Checkpointing checkpoint = Checkpointing::none;
  LlmDtypes dtypes;         // weights (= parameters and gradients), act; kv is act (no cache)
  std::string optimizer = "adam";
  // Gradient bucket for the data-parallel reduction (PyTorch DDP bucket_cap_mb = 25, i.e. 25 MiB).
  double bucket_bytes = 25.0 * 1024 * 1024;
  std::string framework;    // kernels=: "", "eager", "fused", "xla"
  // reduce=: the dtype gradients are reduced in (default: the weights'); FSDP2's
  // MixedPrecisionPolicy(reduce_dtype=fp32) over bf16 compute reduces fp32.
  DType grad_reduce = DType::bf16;
  ZeroImpl zero_impl = ZeroImpl::deepspeed;
  // loss=fp32: the loss on logits.float() (a cast, log_softmax in fp32: train_autocast.h's loss),
  // as autocast always runs it; loss=act (the default without autocast): in the act dtype.
  bool fp32_loss = false;

  // Sequences of one micro-batch on one data-parallel replica.
  std::int64_t micro_batch() const { return batch / (parallel.dp * parallel.microbatches); }
  std::int64_t tokens() const { return batch * seq; }
};

// The spec fields `train` takes (besides the architecture fields).
std::vector<std::string> train_fields();

// Parses `spec`; every mistake (zero=4, seq=0, dp·microbatches not dividing batch, seq beyond the
// model's max_context, unknown optimizer or checkpoint mode, int/fp8 dtypes, a tp or pp the model
// cannot take: parallel_layout.h's rules) is a one-line UserError(workload).
TrainRun parse_train_run(const WorkloadSpec& spec);

std::string checkpoint_name(Checkpointing c);  // "none" | "full" | "selective"

}  // namespace hwsim
