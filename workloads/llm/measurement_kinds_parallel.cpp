// Measurement kind tp_decode_step (data/measurements/h200x2_tp_decode.jsonl): one Megatron-style
// tensor-parallel decode step of a Llama model on `tp` GPUs, timed in a CUDA graph, as a decode
// workload with tp= on a --system. Eager (Python-launched) timings and the variants with the
// communication removed are skipped: the first is host-bound, the second is not a real step.
#include <fmt/format.h>

#include "sim/measurement/measurement.h"

namespace hwsim {
namespace {

std::optional<PredictionPlan> tp_decode_plan(const Measurement& m) {
  auto model = record_word(m, "model"), timing = record_text(m, "timing");
  auto tp = record_whole(m, "tp"), batch = record_whole(m, "batch"), context = record_whole(m, "context");
  if (!model || !timing || !tp || !batch || !context) return std::nullopt;
  if (*timing != "graph" || m.fields.contains("variant")) return std::nullopt;
  PredictionPlan plan(fmt::format("decode:model={},batch={},context={},tp={}", *model, *batch, *context, *tp));
  plan.needs_system = true;
  return plan;
}

HWSIM_REGISTER_MEASUREMENT("tp_decode_step", "a tensor-parallel decode step on a --system", tp_decode_plan);

}  // namespace
}  // namespace hwsim
