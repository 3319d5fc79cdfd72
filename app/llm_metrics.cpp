#include "app/llm_metrics.h"
#include "sim/arith.h"

#include <cctype>

#include <algorithm>
#include <tuple>

namespace hwsim {

namespace {
// Removes a leading "<letter><digits>." ("L3.", "mb1.") when `letters` names it.
bool strip_numbered(std::string& name, std::string_view letters) {
  if (name.size() <= letters.size() || name.compare(0, letters.size(), letters) != 0) return false;
  std::size_t i = letters.size();
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  if (i == letters.size() || i >= name.size() || name[i] != '.') return false;
  name.erase(0, i + 1);
  return true;
}
}  // namespace

// "L3.qkv_proj" → "qkv_proj"; a microbatch prefix goes too ("mb1.L3.qkv_proj"), and the layer
// after a pass prefix ("bwd.L3.qkv_proj.dw" → "bwd.qkv_proj.dw", "recompute.L3.…").
std::string operation_of(const std::string& kernel_name) {
  std::string name = kernel_name;
  strip_numbered(name, "mb");
  for (std::string_view pass : {"bwd.", "recompute."})
    if (name.compare(0, pass.size(), pass) == 0) {
      std::string rest = name.substr(pass.size());
      if (strip_numbered(rest, "L")) return std::string(pass) + rest;
      return name;
    }
  strip_numbered(name, "L");
  return name;
}

namespace {

// Where a record stands among all records of the run, for the farthest-from-floor list.
struct RecordRef {
  double excess;
  std::size_t step, index;  // execution order: ties keep it (deterministic)
};

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

LlmStepMetrics step_metrics(const StepResult& step, const WorkloadStep* ws, const RunResult& r) {
  LlmStepMetrics s;
  s.label = step.label;
  s.phase = ws ? ws->phase : "";
  s.tokens = ws ? ws->tokens : 0;
  s.seconds = step.seconds;
  s.tokens_per_second = ratio(double(s.tokens), step.seconds);
  double bytes = 0, flops = 0;
  for (const auto& k : step.records) bytes += k.memory_bytes, flops += k.flops;
  s.mbu = ratio(ratio(bytes, step.seconds), r.peak_memory_bandwidth);
  s.mfu = ratio(ratio(flops, step.seconds), r.peak_flop_rate);
  return s;
}

// The kLlmFarthestRecords operations farthest from their floor, largest excess first: each by its
// record of the largest excess (the ten layers' gate_up are one entry), with its count of records.
std::vector<LlmRecordDistance> farthest(const RunResult& r, const std::vector<RecordRef>& refs) {
  auto before = [](const RecordRef& a, const RecordRef& b) {
    return a.excess != b.excess ? a.excess > b.excess : std::tie(a.step, a.index) < std::tie(b.step, b.index);
  };
  std::map<std::string, std::pair<RecordRef, std::int64_t>> worst;  // operation -> its worst record, records
  for (const RecordRef& ref : refs) {
    auto [it, added] = worst.try_emplace(operation_of(r.steps[ref.step].records[ref.index].name), ref, 0);
    if (!added && before(ref, it->second.first)) it->second.first = ref;
    ++it->second.second;
  }
  std::vector<std::pair<RecordRef, std::int64_t>> groups;
  for (const auto& [op, g] : worst) groups.push_back(g);
  std::size_t n = std::min(kLlmFarthestRecords, groups.size());
  std::partial_sort(groups.begin(), groups.begin() + std::ptrdiff_t(n), groups.end(),
                    [&](const auto& a, const auto& b) { return before(a.first, b.first); });
  std::vector<LlmRecordDistance> out;
  for (std::size_t i = 0; i < n; ++i) {
    const RecordRef& ref = groups[i].first;
    const WorkRecord& k = r.steps[ref.step].records[ref.index];
    out.push_back({r.steps[ref.step].label, k.name, operation_of(k.name), k.op_class, k.bound, k.seconds,
                   k.roofline_floor, k.seconds - k.roofline_floor, ratio(k.seconds, k.roofline_floor), groups[i].second});
  }
  return out;
}

}  // namespace

LlmMetrics compute_llm_metrics(const Workload& workload, const RunResult& r) {
  LlmMetrics m;
  for (const auto& s : workload.steps) m.tokens += s.tokens;
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
  if (workload.train) {
    m.mfu = workload.train->mfu(r.seconds, r.peak_flop_rate);
    if (workload.train->hardware_flops > 0) m.hfu = workload.train->hfu(r.seconds, r.peak_flop_rate);
  }

  double decode_seconds = 0;
  std::int64_t decode_steps = 0, decode_tokens = 0;
  std::vector<RecordRef> refs;
  std::map<std::string, LlmOperationTime> operations;
  // Workload steps and result steps correspond by index (the runner runs them in order).
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    const StepResult& step = r.steps[i];
    double record_time = 0;
    for (std::size_t j = 0; j < step.records.size(); ++j) {
      const WorkRecord& k = step.records[j];
      record_time += k.seconds;
      add_record(m, operations, k);
      refs.push_back({k.seconds - k.roofline_floor, i, j});
    }
    m.by_class["launch_gaps"].seconds += std::max(0.0, step.seconds - record_time);
    LlmStepMetrics s = step_metrics(step, i < workload.steps.size() ? &workload.steps[i] : nullptr, r);
    if (s.phase == "prefill") m.ttft += step.seconds;
    if (s.phase == "decode") decode_seconds += step.seconds, ++decode_steps, decode_tokens += s.tokens;
    m.steps.push_back(std::move(s));
  }
  m.tpot = decode_steps > 0 ? decode_seconds / double(decode_steps) : 0;
  m.joules_per_token = ratio(r.system.present ? r.system.energy : r.energy, double(m.tokens));
  m.decode_tokens_per_second = ratio(double(decode_tokens), decode_seconds);

  for (auto& [name, op] : operations) op.times_floor = ratio(op.seconds, op.roofline_floor);
  m.by_operation.assign(operations.begin(), operations.end());
  std::stable_sort(m.by_operation.begin(), m.by_operation.end(),
                   [](const auto& a, const auto& b) { return a.second.seconds > b.second.seconds; });
  m.farthest_from_floor = farthest(r, refs);
  return m;
}

}  // namespace hwsim
