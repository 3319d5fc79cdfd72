#include "run/metrics/llm_metrics.h"
#include "sim/arith.h"


#include <algorithm>
#include <tuple>

namespace hwsim {

namespace {

// Adds one record's time to its operation and op class; its launch goes to launch_gaps.
void add_record(LlmMetrics& m, std::map<std::string, LlmOperationTime>& operations, const WorkRecord& k) {
  LlmOperationTime& op = operations[operation_of(k.name)];
  if (op.records == 0) op.op_class = k.op_class, op.bound = k.bound, op.lowering = k.config;
  double running = k.seconds - k.launch;
  op.seconds += running;
  op.roofline_floor += k.roofline_floor;
  op.records += 1;
  LlmClassTime& c = m.by_class[k.op_class];
  c.seconds += running;
  m.by_class["launch_gaps"].seconds += k.launch;
  c.roofline_floor += k.roofline_floor;
  c.records += 1;
}

// Records farther from their floor come first; ties keep execution order (deterministic).
bool farther(double excess_a, std::size_t step_a, std::size_t index_a, double excess_b, std::size_t step_b,
             std::size_t index_b) {
  return excess_a != excess_b ? excess_a > excess_b : std::tie(step_a, index_a) < std::tie(step_b, index_b);
}

}  // namespace

void LlmMetricsBuilder::add_step(const StepResult& step) {
  std::size_t i = steps_.size();
  double record_time = 0;
  StepFigures f;
  for (std::size_t j = 0; j < step.records.size(); ++j) {
    const WorkRecord& k = step.records[j];
    record_time += k.seconds;
    add_record(partial_, operations_, k);
    f.bytes += k.memory_bytes, f.flops += k.flops;
    double excess = k.seconds - k.roofline_floor;
    // Each operation by its record farthest from its floor (ten layers' gate_up are one entry).
    auto [it, added] = farthest_.try_emplace(operation_of(k.name));
    Candidate& c = it->second;
    ++c.records;
    if (added || farther(excess, i, j, c.excess, c.step, c.index))
      c.excess = excess, c.step = i, c.index = j,
      c.distance = {step.label, k.name, it->first, k.op_class, k.bound, k.seconds, k.roofline_floor, excess,
                    ratio(k.seconds, k.roofline_floor)};
  }
  partial_.by_class["launch_gaps"].seconds += std::max(0.0, step.seconds - record_time);
  const WorkloadStep* ws = i < workload_.steps.size() ? &workload_.steps[i] : nullptr;
  LlmStepMetrics& s = f.metrics;
  s.label = step.label;
  s.phase = ws ? ws->phase : "";
  s.tokens = ws ? ws->tokens : 0;
  s.seconds = step.seconds;
  s.tokens_per_second = ratio(double(s.tokens), step.seconds);
  if (s.phase == "prefill") partial_.ttft += step.seconds;
  if (s.phase == "decode") decode_seconds_ += step.seconds, ++decode_steps_, decode_tokens_ += s.tokens;
  steps_.push_back(std::move(f));
}

LlmMetrics LlmMetricsBuilder::finish(const RunResult& r) const {
  LlmMetrics m;
  for (const auto& s : workload_.steps) m.tokens += s.tokens;
  if (m.tokens == 0) return m;
  m.present = true;
  m.seconds = r.seconds;
  m.tokens_per_second = ratio(double(m.tokens), r.seconds);
  m.mbu = ratio(ratio(r.memory_bytes, r.seconds), r.peak_memory_bandwidth);
  m.mfu = ratio(ratio(r.flops, r.seconds), r.peak_flop_rate);
  if (r.system.present) {  // every device used: FLOPs of all over their peaks
    double devices = double(r.system.devices_used);
    m.mfu = ratio(ratio(r.system.flops, r.seconds), devices * r.peak_flop_rate);
    m.mbu = ratio(ratio(r.system.memory_bytes, r.seconds), devices * r.peak_memory_bandwidth);
  }
  m.hfu = m.mfu;
  if (workload_.train) {
    m.mfu = workload_.train->mfu(r.seconds, r.peak_flop_rate);
    if (workload_.train->hardware_flops > 0) m.hfu = workload_.train->hfu(r.seconds, r.peak_flop_rate);
  }
  m.by_class = partial_.by_class;
  m.ttft = partial_.ttft;
  for (const StepFigures& f : steps_) {
    LlmStepMetrics s = f.metrics;
    s.mbu = ratio(ratio(f.bytes, s.seconds), devices_ * r.peak_memory_bandwidth);
    s.mfu = ratio(ratio(f.flops, s.seconds), devices_ * r.peak_flop_rate);
    m.steps.push_back(std::move(s));
  }
  m.tpot = decode_steps_ > 0 ? decode_seconds_ / double(decode_steps_) : 0;
  m.joules_per_token = ratio(r.system.present ? r.system.energy : r.energy, double(m.tokens));
  m.tokens_per_joule = ratio(double(m.tokens), r.system.present ? r.system.energy : r.energy);
  m.decode_tokens_per_second = ratio(double(decode_tokens_), decode_seconds_);
  // The prefill's throughput counts the prompt tokens it processed (the input), not the one token
  // per sequence it produces.
  if (workload_.llm && workload_.llm->phase != "decode") {
    m.prompt_tokens = workload_.llm->batch * workload_.llm->step_tokens;
    m.prefill_tokens_per_second = ratio(double(m.prompt_tokens), m.ttft);
    // A prefill alone: its energy per input token (the one token per sequence it produces is not
    // what it is for).
    if (workload_.llm->phase == "prefill")
      m.joules_per_prompt_token = ratio(r.system.present ? r.system.energy : r.energy, double(m.prompt_tokens));
  }

  m.by_operation.assign(operations_.begin(), operations_.end());
  for (auto& [name, op] : m.by_operation) op.times_floor = ratio(op.seconds, op.roofline_floor);
  std::stable_sort(m.by_operation.begin(), m.by_operation.end(),
                   [](const auto& a, const auto& b) { return a.second.seconds > b.second.seconds; });
  std::vector<const Candidate*> worst;
  for (const auto& [operation, c] : farthest_) worst.push_back(&c);
  std::size_t n = std::min(kLlmFarthestRecords, worst.size());
  std::partial_sort(worst.begin(), worst.begin() + std::ptrdiff_t(n), worst.end(), [](const Candidate* a, const Candidate* b) {
    return farther(a->excess, a->step, a->index, b->excess, b->step, b->index);
  });
  for (std::size_t k = 0; k < n; ++k) {
    LlmRecordDistance d = worst[k]->distance;
    d.records = worst[k]->records;
    m.farthest_from_floor.push_back(std::move(d));
  }
  return m;
}

LlmMetrics compute_llm_metrics(const Workload& workload, const RunResult& r) {
  LlmMetricsBuilder builder(workload);
  for (const auto& step : r.steps) builder.add_step(step);
  return builder.finish(r);
}

}  // namespace hwsim
