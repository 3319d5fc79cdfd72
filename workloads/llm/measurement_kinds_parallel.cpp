// Measurement kind tp_decode_step (data/measurements/h200x2_tp_decode.jsonl): one Megatron-style
// tensor-parallel decode step of a Llama model on `tp` GPUs, timed in a CUDA graph, as a decode
// workload with tp= on a --system. Eager (Python-launched) timings and the variants with the
// communication removed are skipped: the first is host-bound, the second is not a real step.
#include <fmt/format.h>

#include "app/validate/measurement.h"

namespace hwsim {
namespace {

std::optional<PredictionPlan> tp_decode_plan(const Measurement& m) {
  const auto& r = m.fields;
  for (const char* key : {"model", "timing"})
    if (!r.contains(key) || !r[key].is_string()) return std::nullopt;
  for (const char* key : {"tp", "batch", "context"})
    if (!r.contains(key) || !r[key].is_number_integer()) return std::nullopt;
  if (r["timing"] != "graph" || r.contains("variant")) return std::nullopt;
  PredictionPlan plan(fmt::format("decode:model={},batch={},context={},tp={}", r["model"].get<std::string>(),
                                  r["batch"].get<std::int64_t>(), r["context"].get<std::int64_t>(),
                                  r["tp"].get<std::int64_t>()));
  plan.needs_system = true;
  return plan;
}

HWSIM_REGISTER_MEASUREMENT("tp_decode_step", tp_decode_plan);

}  // namespace
}  // namespace hwsim
