// Measurement kind train_step (data/measurements/h200_train*.jsonl, scripts/measure/measure_train.py):
// one training step of a language model on one GPU in eager PyTorch: forward, loss, backward and
// the optimizer, timed between CUDA events. The model is the family's shipped architecture with
// the record's shape put in (layers, widths, heads, vocabulary), so a cut or resized model (a
// 4-layer Llama-3-8B, GPT-2 medium) is the model that ran. A record trained under torch.autocast
// with fp32 parameters (its `precision` says so) runs as weights=fp32,act=bf16 (train_autocast.h).
#include <fmt/format.h>

#include "sim/measurement/measurement.h"
#include "workloads/llm/measurement_train_model.h"

namespace hwsim {
namespace {

std::optional<PredictionPlan> train_step_plan(const Measurement& m) {
  auto family = record_word(m, "family"), precision = record_text(m, "precision");
  auto batch = record_whole(m, "batch"), seq = record_whole(m, "seq");
  auto model = train_model_fields(m);
  if (!family || !precision || !batch || !seq || !model) return std::nullopt;
  const bool autocast = precision->find("autocast") != std::string::npos;
  const bool checkpoint = record_flag(m, "checkpointing").value_or(false);
  const std::int64_t microbatches = record_whole(m, "microbatches", 1).value_or(1);
  // Records with gradient accumulation give `batch` per micro-batch and `global_batch` per step;
  // the spec's batch is the step's.
  const std::int64_t step_batch = record_whole(m, "global_batch", 1).value_or(*batch);
  PredictionPlan plan(fmt::format("train:{},batch={},seq={},microbatches={},checkpoint={}{}", *model, step_batch, *seq,
                                  microbatches, checkpoint ? "full" : "none",
                                  autocast ? ",weights=fp32,act=bf16" : ""));
  plan.family = *family;
  return plan;
}

HWSIM_REGISTER_MEASUREMENT("train_step", "one training step of a language model on one GPU (eager PyTorch)",
                           train_step_plan);

}  // namespace
}  // namespace hwsim
