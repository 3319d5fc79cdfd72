#include "app/llm_metrics.h"

#include <cctype>

#include <algorithm>

namespace hwsim {

namespace {
double ratio(double part, double whole) { return whole > 0 ? part / whole : 0; }
}  // namespace

std::string operation_of(const std::string& kernel_name) {
  if (kernel_name.size() > 1 && kernel_name[0] == 'L' && std::isdigit(static_cast<unsigned char>(kernel_name[1]))) {
    auto dot = kernel_name.find('.');
    if (dot != std::string::npos) return kernel_name.substr(dot + 1);
  }
  return kernel_name;
}

LlmMetrics compute_llm_metrics(const Workload& workload, const RunResult& r) {
  LlmMetrics m;
  for (const auto& s : workload.steps) m.tokens += s.tokens;
  if (m.tokens == 0) return m;
  m.present = true;
  m.seconds = r.seconds;
  m.tokens_per_second = ratio(double(m.tokens), r.seconds);
  m.mbu = ratio(ratio(r.memory_bytes, r.seconds), r.peak_memory_bandwidth);
  m.mfu = ratio(ratio(r.flops, r.seconds), r.peak_flop_rate);

  double decode_seconds = 0;
  std::int64_t decode_steps = 0, decode_tokens = 0;
  std::vector<LlmRecordDistance> distances;
  // Workload steps and result steps correspond by index (the model runs them in order).
  std::map<std::string, LlmOperationTime> operations;
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    const StepResult& step = r.steps[i];
    const WorkloadStep* ws = i < workload.steps.size() ? &workload.steps[i] : nullptr;
    LlmStepMetrics sm;
    sm.label = step.label;
    sm.phase = ws ? ws->phase : "";
    sm.tokens = ws ? ws->tokens : 0;
    sm.seconds = step.seconds;
    sm.tokens_per_second = ratio(double(sm.tokens), step.seconds);
    double hbm = 0, flops = 0, kernel_time = 0;
    for (const auto& k : step.records) {
      hbm += k.memory_bytes;
      flops += k.flops;
      kernel_time += k.seconds;
      LlmOperationTime& op = operations[operation_of(k.name)];
      if (op.records == 0) op.op_class = k.op_class, op.bound = k.bound, op.lowering = k.config;
      double running = k.seconds - k.launch;  // the launch is counted under launch_gaps
      op.seconds += running;
      op.roofline_floor += k.roofline_floor;
      op.records += 1;
      LlmClassTime& c = m.by_class[k.op_class];
      c.seconds += running;
      m.by_class["launch_gaps"].seconds += k.launch;
      c.roofline_floor += k.roofline_floor;
      c.records += 1;
      distances.push_back({step.label, k.name, k.op_class, k.bound, k.seconds, k.roofline_floor,
                           k.seconds - k.roofline_floor, ratio(k.seconds, k.roofline_floor)});
    }
    m.by_class["launch_gaps"].seconds += std::max(0.0, step.seconds - kernel_time);
    sm.mbu = ratio(ratio(hbm, step.seconds), r.peak_memory_bandwidth);
    sm.mfu = ratio(ratio(flops, step.seconds), r.peak_flop_rate);
    if (sm.phase == "prefill") m.ttft += step.seconds;
    if (sm.phase == "decode") decode_seconds += step.seconds, ++decode_steps, decode_tokens += sm.tokens;
    m.steps.push_back(std::move(sm));
  }
  m.tpot = decode_steps > 0 ? decode_seconds / double(decode_steps) : 0;
  m.joules_per_token = ratio(r.energy, double(m.tokens));
  m.decode_tokens_per_second = ratio(double(decode_tokens), decode_seconds);

  for (auto& [name, op] : operations) op.times_floor = ratio(op.seconds, op.roofline_floor);
  m.by_operation.assign(operations.begin(), operations.end());
  std::stable_sort(m.by_operation.begin(), m.by_operation.end(),
                   [](const auto& a, const auto& b) { return a.second.seconds > b.second.seconds; });

  // Largest excess first; ties keep execution order (deterministic).
  std::stable_sort(distances.begin(), distances.end(), [](const auto& a, const auto& b) { return a.excess > b.excess; });
  distances.resize(std::min(kLlmFarthestRecords, distances.size()));
  m.farthest_from_floor = std::move(distances);
  return m;
}

}  // namespace hwsim
