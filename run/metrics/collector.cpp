#include "run/metrics/collector.h"

#include "run/metrics/inference_metrics.h"

namespace hwsim {

void describe_device(RunResult& result, const DeviceInfo& device) {
  result.level = device.level;
  result.device_kind = device.kind;
  result.unit = device.unit;
  result.summary_detail = device.summary_detail;
  result.compute_unit = device.compute_unit;
  result.tdp = device.tdp;
  result.idle_power = device.idle_power;
  result.max_clock = device.max_clock;
  result.peak_clock = device.peak_clock;
  for (const auto& level : device.memory) {
    result.memory_levels.push_back(level.name);
    result.memory_level_bandwidth.push_back(level.bandwidth);
  }
}

namespace {
RunResult described(const DeviceInfo& device) {
  RunResult r;
  describe_device(r, device);
  return r;
}
}  // namespace

RunCollector::RunCollector(const Workload& workload, const DeviceInfo& device, const RunStreams& streams,
                           std::vector<double> ranks)
    : workload_(workload), device_(device), streams_(streams),
      keep_(streams.keep_records || workload.steps.size() <= 1 || device.static_memory_plan), result_(described(device)),
      sums_(result_.memory_levels, ranks, device.idle_power, result_.memory_level_bandwidth),
      llm_(workload, double(ranks.size())) {}

void RunCollector::add_step(StepResult&& step) {
  sums_.add_step(step);
  llm_.add_step(step);
  for (auto& part : parts_) part->add_step(step);
  for (StepSink* sink : streams_.sinks) sink->add_step(step);
  if (!keep_) std::vector<WorkRecord>().swap(step.records);
  result_.steps.push_back(std::move(step));
  if (streams_.progress) streams_.progress(result_.steps.size(), workload_.steps.size());
}

void RunCollector::add_span(std::size_t device, const RunTotals& work, double start, double end) {
  sums_.add_span(device, work, start, end);
}

void RunCollector::add_idle(std::size_t device, double start, double end) { sums_.add_idle(device, start, end); }

void RunCollector::keep_step(StepResult&& step) {
  for (auto& k : step.records) finalize_record(k, device_.fastest_level());
  if (!step.records.empty()) step.record_count = step.records.size();  // else: counted where dropped
  result_.steps.push_back(std::move(step));
}

RunResult RunCollector::finish(double span) {
  RunResult& r = result_;
  sums_.finish(r, span);
  for (auto& part : parts_) part->finish(r, sums_);
  r.llm = llm_.finish(r);
  r.inference = compute_inference_metrics(r, device_);
  return std::move(r);
}

}  // namespace hwsim
