#include "workloads/llm/capacity.h"

#include <algorithm>
#include <fmt/format.h>

#include "sim/units.h"
#include "workloads/llm/parallel_layout.h"

namespace hwsim {

namespace {
std::string bytes(double b) { return format_quantity(b, Dimension::bytes, 4); }

// What would shrink weights that alone overflow a device: a narrower format, unless they already
// have the narrowest there is (int4); then only more devices, or a bigger memory, would hold them.
std::string shrink_advice(DType weights, const std::string& more_devices) {
  if (weights == DType::int4) return fmt::format("the weights are already int4: {}, or a device with more memory", more_devices);
  return fmt::format("{}, or weights=fp8/int8/int4", more_devices);
}
}  // namespace

double footprint_bytes(const LlmFacts& f, std::int64_t batch, std::int64_t context) {
  std::int64_t kept = f.window > 0 ? std::min(context, f.window) : context;
  double per_sequence = double(kept) * f.kv_bytes_per_token +
                        double(std::min(f.step_tokens, context)) * f.activation_bytes_per_token +
                        f.activation_bytes_per_sequence;
  return f.weight_bytes + double(batch) * per_sequence;
}

std::int64_t largest_fitting_batch(const LlmFacts& f, double capacity) {
  double per_sequence = footprint_bytes(f, 1, f.context) - f.weight_bytes;
  if (per_sequence <= 0 || capacity < f.weight_bytes) return 0;
  return std::int64_t((capacity - f.weight_bytes) / per_sequence);
}

std::int64_t largest_fitting_context(const LlmFacts& f, double capacity) {
  if (footprint_bytes(f, f.batch, 1) > capacity) return 0;
  std::int64_t lo = 1, hi = std::max<std::int64_t>(1, f.max_context);  // invariant: lo fits
  while (lo < hi) {
    std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (footprint_bytes(f, f.batch, mid) <= capacity) lo = mid; else hi = mid - 1;
  }
  return lo;
}

std::string fit_advice(const Workload& w, double capacity) { return w.llm ? fit_advice(*w.llm, capacity) : ""; }

std::string fit_advice(const LlmFacts& f, double capacity) {
  std::string head = fmt::format("{} {} batch {}, {} positions per sequence: needs {} (weights {}, KV cache {}, activations {}), {} available",
                                 f.model, f.phase, f.batch, f.context, bytes(f.total_bytes()), bytes(f.weight_bytes),
                                 bytes(f.kv_bytes), bytes(f.activation_bytes), bytes(capacity));
  if (f.total_bytes() <= capacity) return head + ": fits";
  if (f.weight_bytes >= capacity)
    return fmt::format("{}: the weights alone do not fit ({})", head,
                       shrink_advice(f.weights_dtype, "fewer layers, tensor or pipeline ranks on a --system"));
  std::int64_t batch = largest_fitting_batch(f, capacity), context = largest_fitting_context(f, capacity);
  std::string batch_text = batch > 0 ? fmt::format("largest batch at {} positions: {}", f.context, batch)
                                     : fmt::format("not one sequence fits at {} positions", f.context);
  std::string context_text = context > 0 ? fmt::format("largest context at batch {}: {} positions", f.batch, context)
                                         : fmt::format("no context fits at batch {}", f.batch);
  return fmt::format("{}: does not fit; {}; {}", head, batch_text, context_text);
}

std::string stage_fit_advice(const Workload& w, std::size_t stage, double capacity) {
  return stage_fit_advice(w, w.stage_footprint, stage, capacity);
}

std::string stage_fit_advice(const Workload& w, const std::vector<DeviceFootprint>& footprints, std::size_t stage,
                             double capacity) {
  if (stage >= footprints.size()) return "";
  const DeviceFootprint& f = footprints[stage];
  const Parallelism& p = w.parallel;
  std::string who = w.llm ? fmt::format("{} {} batch {}, {} positions per sequence, ", w.llm->model, w.llm->phase,
                                        w.llm->batch, w.llm->context)
                          : std::string();
  std::string head = fmt::format("{}{}: stage {} of {} needs {} per device (weights {}, KV cache {}, activations {}), {} "
                                 "available",
                                 who, layout_text(p), stage, footprints.size(), bytes(f.total()),
                                 bytes(f.weights), bytes(f.kv_cache), bytes(f.activations), bytes(capacity));
  if (f.total() <= capacity) return head + ": fits";
  if (f.weights + f.gradients + f.optimizer >= capacity)
    return fmt::format("{}: the stage's weights alone do not fit ({})", head,
                       shrink_advice(w.llm ? w.llm->weights_dtype : DType::bf16, "more tp or pp ranks"));
  if (!w.llm || w.llm->batch < 1) return head + ": does not fit";
  double per_batch = (f.kv_cache + f.activations) / double(w.llm->batch);
  std::int64_t unit = p.dp * p.ep * p.microbatches;
  std::int64_t largest = per_batch > 0 ? std::int64_t((capacity - f.weights - f.gradients - f.optimizer) / per_batch) : 0;
  largest -= largest % unit;
  if (largest < unit)
    return fmt::format("{}: does not fit; not even batch {} (one sequence per microbatch) fits at {} positions", head,
                       unit, w.llm->context);
  return fmt::format("{}: does not fit; largest batch at {} positions: {}", head, w.llm->context, largest);
}

}  // namespace hwsim
