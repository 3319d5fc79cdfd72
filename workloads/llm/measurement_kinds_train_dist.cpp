// Measurement kind train_step_dist (data/measurements/h200x{2,4}_train_dist.jsonl,
// scripts/measure/measure_train_dist.py): one data-parallel training step of a language model over
// the `world_size` GPUs of one host in eager PyTorch, as a `train` workload with dp = world_size
// on a --system of that many devices. The model is the record's shape (as for train_step).
//   strategy ddp:   DistributedDataParallel over an autocast step with fp32 parameters: zero=0,
//                   weights=fp32,act=bf16; fp32 gradients all-reduced in 25 MiB buckets as the
//                   backward produces them (the record's bucket_cap_mb).
//   strategy fsdp2: fully_shard per block and on the root, MixedPrecisionPolicy(param_dtype=bf16,
//                   reduce_dtype=fp32), no autocast: zero=3,zero_impl=fsdp2 (per-block units, the
//                   root gathered once) with bf16 compute and gathers, gradients reduced in the
//                   record's reduce dtype (its `precision` names it).
// Records of one GPU (the wrapper check, world_size 1) are skipped: they run on no --system.
#include <fmt/format.h>

#include "sim/measurement/measurement.h"
#include "workloads/llm/measurement_train_model.h"

namespace hwsim {
namespace {

// The spec's fields for the record's strategy; nullopt for a strategy not modelled.
std::optional<std::string> strategy_fields(const Measurement& m, const std::string& strategy) {
  if (strategy == "ddp") {
    const double bucket_mb = m.fields.value("wrapper", nlohmann::json::object()).value("bucket_cap_mb", 25.0);
    return fmt::format("zero=0,weights=fp32,act=bf16,bucket={}MiB", bucket_mb);
  }
  if (strategy == "fsdp2") {
    auto precision = record_text(m, "precision");
    const bool fp32_reduce = precision && precision->find("reduce_dtype=fp32") != std::string::npos;
    const bool fp32_loss = precision && precision->find("logits.float()") != std::string::npos;
    return fmt::format("zero=3,zero_impl=fsdp2,weights=bf16,act=bf16,reduce={},loss={}", fp32_reduce ? "fp32" : "bf16",
                       fp32_loss ? "fp32" : "act");
  }
  return std::nullopt;
}

std::optional<PredictionPlan> train_step_dist_plan(const Measurement& m) {
  auto strategy = record_word(m, "strategy");
  auto ranks = record_whole(m, "world_size", 1), batch = record_whole(m, "global_batch", 1);
  auto seq = record_whole(m, "seq");
  auto model = train_model_fields(m);
  if (!strategy || !ranks || !batch || !seq || !model || *ranks < 2) return std::nullopt;
  auto fields = strategy_fields(m, *strategy);
  if (!fields) return std::nullopt;
  const bool checkpoint = record_flag(m, "checkpointing").value_or(false);
  PredictionPlan plan(fmt::format("train:{},batch={},seq={},dp={},checkpoint={},{}", *model, *batch, *seq, *ranks,
                                  checkpoint ? "full" : "none", *fields));
  plan.family = *strategy;
  plan.needs_system = true;
  return plan;
}

HWSIM_REGISTER_MEASUREMENT("train_step_dist",
                           "one data-parallel training step (DDP or FSDP2, eager PyTorch) on the GPUs of a --system",
                           train_step_dist_plan);

}  // namespace
}  // namespace hwsim
