// The `train` workload (train_run.h, train_step.h, train_memory.h, train_facts.h, train_workload.h) and its
// presets.
#include <algorithm>
#include <fmt/format.h>
#include <map>

#include "workloads/llm/train_workload.h"
#include "workloads/llm/train_memory.h"
#include "workloads/llm/train_run.h"
#include "workloads/llm/train_step.h"
#include "workloads/spec.h"
#include "workloads/workload.h"

namespace hwsim {

namespace {

using Defaults = std::map<std::string, std::string>;

// Presets: name → defaults (the given fields win). Also read by train_run_of().
const std::map<std::string, Defaults>& train_presets() {
  static const std::map<std::string, Defaults> presets = {
      {"train", {}},
      {"train_llama8b", {{"model", "llama3_8b"}, {"batch", "8"}, {"seq", "4096"}, {"dp", "8"}, {"zero", "1"}}},
      {"train_llama70b",
       {{"model", "llama3_70b"}, {"batch", "8"}, {"seq", "4096"}, {"dp", "8"}, {"zero", "1"}}},
      {"train_gpt2", {{"model", "gpt2"}, {"batch", "8"}, {"seq", "1024"}}},
  };
  return presets;
}

Workload build_train(const TrainRun& run) {
  Workload w;
  OpGraph graph = lower_train_step(run);
  w.steps.push_back(WorkloadStep{"train", std::move(graph), run.tokens(), "train"});
  w.framework = run.framework;
  w.parallel = run.parallel;
  w.stage_footprint = train_stage_footprints(run);
  w.train = make_train_facts(run, &w.steps.front().graph);
  w.fit_advice = [run](double capacity) { return train_fit_advice(run, capacity); };
  return w;
}

WorkloadBuilder train_builder(Defaults defaults) {
  return [defaults](const WorkloadSpec& spec) { return build_train(parse_train_run(spec.with_defaults(defaults))); };
}

const char* kTrainFields =
    "model=, batch= (global sequences per step), seq=, dp=1, tp=1, pp=1, microbatches=1 (per replica: gradient "
    "accumulation), zero=0|1|2|3, checkpoint=none|full, weights=/act= bf16|fp16|fp32 (bf16), optimizer=adam, "
    "bucket=25MiB (DDP gradient bucket), kernels=, and any architecture field";

HWSIM_REGISTER_WORKLOAD("train", fmt::format("one training step (forward, loss, backward, gradient reduction, Adam; "
                                             "1F1B over pipeline stages): {}", kTrainFields),
                        train_builder({}));
HWSIM_REGISTER_WORKLOAD("train_llama8b",
                        "train preset: model=llama3_8b, batch=8, seq=4096, dp=8, zero=1 (override any field)",
                        train_builder(train_presets().at("train_llama8b")));
HWSIM_REGISTER_WORKLOAD("train_llama70b",
                        "train preset: model=llama3_70b, batch=8, seq=4096, dp=8, zero=1 (does not fit 80 GB "
                        "devices: see the advice)",
                        train_builder(train_presets().at("train_llama70b")));
HWSIM_REGISTER_WORKLOAD("train_gpt2", "train preset: model=gpt2, batch=8, seq=1024, one device",
                        train_builder(train_presets().at("train_gpt2")));

}  // namespace

TrainFacts make_train_facts(const TrainRun& run, const OpGraph* graph) {
  const ModelArchitecture& m = run.arch;
  const TrainParams p = train_params(m);
  TrainFacts f;
  f.model = m.name;
  f.batch = run.batch, f.seq = run.seq, f.tokens = run.tokens(), f.micro_batch = run.micro_batch();
  f.tp = run.parallel.tp, f.pp = run.parallel.pp, f.dp = run.parallel.dp;
  f.microbatches = run.parallel.microbatches;
  f.devices = run.parallel.ranks();
  f.zero = run.zero;
  f.checkpoint = checkpoint_name(run.checkpoint);
  f.params = p.total();
  f.flop_params = p.flop_params(m);
  const double span = double(m.window > 0 ? std::min(run.seq, m.window) : run.seq);
  const double attention = 12.0 * double(m.layers) * double(m.heads) * double(m.head_dim) * span;
  f.model_flops = double(f.tokens) * (6.0 * f.flop_params + attention);
  // PaLM's HFU counts the rematerialised forward too (checkpoint=full: every layer's, not the LM
  // head's): a third of the layers' model FLOPs again, so HFU ≥ MFU by definition.
  // checkpoint=selective: the attention's forward again (a third of its model FLOPs).
  const double layer_flops = 2.0 * double(m.layers) * p.layer_active + attention / 3.0;
  const double recomputed = run.checkpoint == Checkpointing::full        ? layer_flops
                            : run.checkpoint == Checkpointing::selective ? attention / 3.0
                                                                         : 0.0;
  f.hardware_flops = f.model_flops + double(f.tokens) * recomputed;
  const double per_param = 2.0 * bytes_per_element(run.dtypes.weights) +
                           (run.dtypes.weights == DType::fp32 ? 8.0 : 12.0);
  f.model_state_bytes = f.params * per_param;
  if (graph) {
    double flops = 0;
    for (OpVertex v : execution_order(*graph)) flops += op_flops((*graph)[v]);
    f.executed_flops = flops * double(run.parallel.tp * run.parallel.dp);
  }
  return f;
}

std::optional<TrainRun> train_run_of(const Workload& w) {
  auto it = train_presets().find(w.kind);
  if (it == train_presets().end()) return std::nullopt;
  return parse_train_run(WorkloadSpec::parse(w.spec).with_defaults(it->second));
}

std::optional<TrainFacts> train_facts(const Workload& w) {
  auto run = train_run_of(w);
  if (!run) return std::nullopt;
  return make_train_facts(*run, w.steps.empty() ? nullptr : &w.steps.front().graph);
}

std::string train_fit_advice(const Workload& w, double capacity) {
  auto run = train_run_of(w);
  return run ? train_fit_advice(*run, capacity) : std::string();
}

}  // namespace hwsim
