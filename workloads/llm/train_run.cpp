#include "workloads/llm/train_run.h"

#include <fmt/format.h>

#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "sim/units.h"
#include "workloads/llm/parallel_layout.h"
#include "workloads/passes/framework_pass.h"
#include "workloads/spec.h"

namespace hwsim {

std::vector<std::string> train_fields() {
  return {"model", "batch", "seq", "dp", "tp", "pp", "microbatches", "zero", "checkpoint", "sequence_parallel",
          "weights", "act", "reduce", "loss", "optimizer", "bucket", "zero_impl", "kernels"};
}

std::string checkpoint_name(Checkpointing c) {
  return c == Checkpointing::full ? "full" : c == Checkpointing::selective ? "selective" : "none";
}

TrainRun parse_train_run(const WorkloadSpec& spec) {
  auto fail = [&](const std::string& what) { workload_error(fmt::format("workload '{}': {}", spec.text(), what)); };
  TrainRun run;
  run.arch = spec_architecture(spec);
  if (run.arch.is_mla() || run.arch.shared_experts > 0 || run.arch.dense_layers > 0)
    fail(fmt::format("training {} (multi-head latent attention, shared experts, dense first layers) is not modelled; "
                     "decode and prefill are", run.arch.name));

  run.batch = spec.positive_int("batch");
  run.seq = spec.positive_int("seq");
  run.parallel.dp = spec.positive_int("dp", 1);
  run.parallel.tp = spec.positive_int("tp", 1);
  run.parallel.pp = spec.positive_int("pp", 1);
  run.parallel.microbatches = spec.positive_int("microbatches", 1);
  bound_parallelism(run.parallel, spec.text());

  std::int64_t zero = spec.non_negative_int("zero", 0);
  if (zero > 3)
    fail(fmt::format("zero: '{}' is not a ZeRO stage; valid: 0 (plain data parallel), 1 (optimizer states "
                     "sharded), 2 (+ gradients), 3 (+ parameters)", zero));
  run.zero = int(zero);

  std::string ckpt = spec.word("checkpoint", "none");
  if (ckpt == "none") run.checkpoint = Checkpointing::none;
  else if (ckpt == "full") run.checkpoint = Checkpointing::full;
  else if (ckpt == "selective") run.checkpoint = Checkpointing::selective;
  else fail(fmt::format("checkpoint: '{}' is not none, full or selective{}", ckpt,
                        did_you_mean(ckpt, {"none", "full", "selective"})));
  run.parallel.sequence_parallel = spec.boolean("sequence_parallel", false);

  run.dtypes.weights = spec.dtype("weights", DType::bf16);
  run.dtypes.act = spec.dtype("act", DType::bf16);
  for (auto [key, t] : {std::pair{"weights", run.dtypes.weights}, std::pair{"act", run.dtypes.act}})
    if (t != DType::bf16 && t != DType::fp16 && t != DType::fp32)
      fail(fmt::format("{}: training in {} is not modelled; use bf16, fp16 or fp32", key, dtype_name(t)));
  run.dtypes.kv = run.dtypes.act;  // no KV cache: K and V are plain activations

  run.grad_reduce = spec.dtype("reduce", run.dtypes.weights);
  if (run.grad_reduce != DType::bf16 && run.grad_reduce != DType::fp16 && run.grad_reduce != DType::fp32)
    fail(fmt::format("reduce: gradients reduced in {} is not modelled; use bf16, fp16 or fp32", dtype_name(run.grad_reduce)));
  const bool autocast = run.dtypes.weights == DType::fp32 && run.dtypes.act != DType::fp32;
  std::string loss = spec.word("loss", autocast ? "fp32" : "act");
  if (loss != "fp32" && loss != "act")
    fail(fmt::format("loss: '{}' is not fp32 or act{}", loss, did_you_mean(loss, {"fp32", "act"})));
  if (autocast && loss == "act") fail("loss=act: under autocast (weights=fp32, 16-bit act) the loss runs in fp32");
  run.fp32_loss = loss == "fp32";
  std::string impl = spec.word("zero_impl", "deepspeed");
  if (impl == "fsdp2") run.zero_impl = ZeroImpl::fsdp2;
  else if (impl != "deepspeed")
    fail(fmt::format("zero_impl: '{}' is not deepspeed or fsdp2{}", impl, did_you_mean(impl, {"deepspeed", "fsdp2"})));
  if (run.zero_impl == ZeroImpl::fsdp2 && run.zero != 3) fail("zero_impl=fsdp2: needs zero=3 (FSDP2 shards parameters)");

  run.optimizer = spec.word("optimizer", "adam");
  if (run.optimizer != "adam")
    fail(fmt::format("optimizer: '{}' is not modelled; valid: adam{}", run.optimizer,
                     did_you_mean(run.optimizer, {"adam"})));

  if (spec.has("bucket")) {
    std::string why;
    auto b = parse_quantity_as(spec.word("bucket", ""), Dimension::bytes, &why);
    if (!b || !(*b > 0))
      fail(fmt::format("bucket: '{}' is not a positive size in bytes (e.g. 25MiB){}", spec.word("bucket", ""),
                       why.empty() ? "" : ": " + why));
    run.bucket_bytes = *b;
  }

  run.framework = spec.word("kernels", "");
  std::vector<std::string> frameworks = FrameworkPasses::names();
  if (!run.framework.empty() && !FrameworkPasses::entries().count(run.framework))
    fail(fmt::format("kernels: '{}' is not one of {} (default: the device's){}", run.framework, join(frameworks),
                     did_you_mean(run.framework, frameworks)));

  std::vector<std::string> valid = train_fields();
  for (const auto& f : architecture_fields()) valid.push_back(f);
  spec.reject_unused(valid);

  if (run.seq > run.arch.max_context)
    fail(fmt::format("seq: {} tokens exceed {}'s max_context {}", run.seq, run.arch.name, run.arch.max_context));
  std::int64_t split = run.parallel.dp * run.parallel.microbatches;
  if (run.batch % split != 0)
    fail(fmt::format("batch: {} sequences do not split into dp={} replicas x microbatches={} (batch must be a "
                     "multiple of {}; e.g. batch={})", run.batch, run.parallel.dp, run.parallel.microbatches, split,
                     ((run.batch + split - 1) / split) * split));
  // tp, pp and the batch split by the inference layout's rules (parallel_layout.h); micro-batches
  // without a pipeline are gradient accumulation, which training allows.
  Parallelism layout = run.parallel;
  if (layout.pp == 1) layout.microbatches = 1;
  check_parallelism(run.arch, run.batch, layout, spec.text());
  if (run.parallel.sequence_parallel) {
    if (run.parallel.tp == 1) fail("sequence_parallel: needs tp > 1 (it splits the tp ranks' replicated work)");
    if (run.arch.is_moe()) fail("sequence_parallel: with experts (MoE) is not modelled; dense models only");
    if ((run.micro_batch() * run.seq) % run.parallel.tp != 0)
      fail(fmt::format("sequence_parallel: a micro-batch's {} tokens do not split over tp={} ranks",
                       run.micro_batch() * run.seq, run.parallel.tp));
  }
  return run;
}

}  // namespace hwsim
