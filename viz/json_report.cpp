#include "viz/json_report.h"

#include "viz/inference_report.h"
#include "viz/power_report.h"
#include "viz/serving_report.h"
#include "viz/system_report.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>

#include "sim/output_budget.h"
#include "sim/error.h"
#include "viz/json_text.h"

namespace hwsim {

namespace {
constexpr int kIndent = 2;
// result.steps[i].kernels sits at nesting 4: document → result → steps → step → kernels.
constexpr int kKernelsDepth = 4;
// A string no field holds (a control character leads it): step i's kernels until they are written.
const std::string kPlaceholder = "\x01kernels:";

// Old names (math, memory_wait) kept beside the generic ones: scripts rely on them.
nlohmann::json breakdown_json(const TimeBreakdown& b) {
  return {{"compute", b.compute},   {"memory", b.memory}, {"communication", b.communication},
          {"overhead", b.overhead}, {"idle", b.idle},     {"math", b.compute},
          {"memory_wait", b.memory}};
}

// A whole number stays an integer in JSON (counts such as ctas), anything else a float.
nlohmann::json number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 9e15) return std::int64_t(v);
  return v;
}

void add_breakdown(JsonObjectText& j, const TimeBreakdown& b) {
  j.add_float("compute", b.compute);
  j.add_float("memory", b.memory);
  j.add_float("communication", b.communication);
  j.add_float("overhead", b.overhead);
  j.add_float("idle", b.idle);
  j.add_float("math", b.compute);
  j.add_float("memory_wait", b.memory);
}

nlohmann::json details_json(const std::vector<Detail>& details) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& d : details) out[d.key] = number(d.value);
  return out;
}

// {"min": ..., "<level>": bytes ...} near → far.
nlohmann::json bytes_json(double min_bytes, const std::vector<LevelTraffic>& traffic) {
  nlohmann::json out = {{"min", min_bytes}};
  for (const auto& t : traffic) out[t.level] = t.bytes;
  return out;
}

std::string main_level(const std::vector<LevelTraffic>& traffic) {
  return traffic.empty() ? std::string("memory") : traffic.back().level;
}

std::string main_level(const WorkRecord& k) {
  return k.traffic.empty() ? std::string("memory") : k.schema->levels[k.traffic.size() - 1];
}
}  // namespace

// One record. Kind-specific details appear both under "details" and as top-level fields (the
// GPU's ctas, ctas_per_sm, sms_used and waves have always been there; a detail of the same name as
// a field replaces it, as it always has).
void append_kernel_json(std::string& out, const WorkRecord& k, int depth) {
  thread_local JsonObjectText j(kIndent, depth);  // reused: its buffers stay allocated
  j.reset(depth);
  j.add_string("name", k.name);
  j.add_string("op_class", k.op_class);
  j.add_string("config", k.config);
  j.add_string("dtype", k.dtype);
  j.add_float("start", k.start);
  j.add_float("end", k.end);
  j.add_float("launch", k.launch);
  j.add_float("seconds", k.seconds);
  j.add_float("flops", k.flops);
  JsonObjectText& bytes = j.add_object("bytes");
  bytes.add_float("min", k.min_bytes);
  for (std::size_t i = 0; i < k.traffic.size(); ++i) bytes.add_float(k.schema->levels[i], k.traffic[i]);
  j.add_float("achieved_flop_rate", k.achieved_flop_rate);
  j.add_float(j.keep(main_level(k) + "_bandwidth"), k.memory_bandwidth_achieved);
  j.add_float("roofline_floor", k.roofline_floor);
  j.add_float("arithmetic_intensity", k.arithmetic_intensity);
  j.add_float("ridge_point", k.ridge_point);
  j.add_string("bound", k.bound);
  add_breakdown(j.add_object("time_breakdown"), k.breakdown);
  j.add_float("energy", k.energy);
  JsonObjectText& details = j.add_object("details");
  for (std::size_t i = 0; i < k.details.size(); ++i) details.add_number(k.schema->details[i].key, k.details[i]);
  if (!k.energy_parts.empty() && k.schema) {
    JsonObjectText& parts = j.add_object("energy_parts");
    for (std::size_t i = 0; i < k.energy_parts.size() && i < k.schema->energy_parts.size(); ++i)
      parts.add_float(k.schema->energy_parts[i], k.energy_parts[i]);
  }
  if (k.clock > 0) j.add_float("clock", k.clock), j.add_float("throttled", k.throttled);
  if (k.device != 0 || k.hidden != 0) j.add_integer("device", k.device), j.add_float("hidden", k.hidden);  // system runs
  for (std::size_t i = 0; i < k.details.size(); ++i) j.add_number(k.schema->details[i].key, k.details[i]);
  j.write(out);
}

namespace {
// result.power; a summary keeps its totals and leaves the power-over-time series out, as it does
// the records.
nlohmann::json summary_power(nlohmann::json power, JsonDetail detail) {
  if (detail == JsonDetail::summary && power.is_object()) power.erase("trace"), power.erase("trace_columns");
  return power;
}

// A step's kernels array, from its kept records.
void append_kernels(std::string& out, const std::vector<WorkRecord>& records) {
  append_array_open(out, kIndent, kKernelsDepth, records.empty());
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (i > 0) append_array_separator(out, kIndent, kKernelsDepth);
    append_kernel_json(out, records[i], kKernelsDepth + 1);
  }
  append_array_close(out, kIndent, kKernelsDepth, records.empty());
}

// Stands in the document for step i's kernels array until the text is written.
std::string kernels_placeholder(std::size_t i) { return kPlaceholder + std::to_string(i); }

nlohmann::json result_json(const RunResult& r, JsonDetail detail) {
  nlohmann::json steps = nlohmann::json::array();
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    const StepResult& s = r.steps[i];
    if (detail == JsonDetail::summary)
      steps.push_back({{"label", s.label}, {"seconds", s.seconds}, {"records", s.record_count}});
    else
      steps.push_back({{"label", s.label}, {"seconds", s.seconds}, {"kernels", kernels_placeholder(i)}});
  }
  nlohmann::json bandwidth = nlohmann::json::object();
  for (std::size_t i = 0; i < r.traffic.size() && i < r.bandwidth.size(); ++i) bandwidth[r.traffic[i].level] = r.bandwidth[i];
  bandwidth[main_level(r.traffic) + "_peak"] = r.peak_memory_bandwidth;
  nlohmann::json bandwidth_peak = nlohmann::json::object();  // the chip's figure per memory level
  for (std::size_t i = 0; i < r.memory_levels.size() && i < r.memory_level_bandwidth.size(); ++i)
    bandwidth_peak[r.memory_levels[i]] = r.memory_level_bandwidth[i];
  return {{"seconds", r.seconds},
          {"devices", r.devices},
          {"flops", r.flops},
          {"achieved_flop_rate", r.achieved_flop_rate},
          {"peak_flop_rate", r.peak_flop_rate},
          {"percent_of_peak", r.percent_of_peak},
          {"roofline_floor", r.roofline_floor},
          {"times_floor", r.times_floor},
          {"arithmetic_intensity", r.arithmetic_intensity},
          {"ridge_point", r.ridge_point},
          {"bound", r.bound},
          {"bytes", bytes_json(r.min_bytes, r.traffic)},
          {"bandwidth", bandwidth},
          {"bandwidth_peak", bandwidth_peak},
          {"time_breakdown", breakdown_json(r.breakdown)},
          {"details", details_json(r.details)},
          {"energy", r.energy},
          {"average_power", r.average_power},
          {"tdp", r.tdp},
          {"idle_power", r.idle_power},
          {"above_tdp", r.above_tdp},
          {"power", summary_power(power_json(r), detail)},
          {"steps", steps}};
}
}  // namespace

JsonKernelStream::JsonKernelStream() : spill_(std::tmpfile()) {
  if (!spill_) io_error("cannot create a temporary file for the JSON document's records");
  offsets_.push_back(0);
}

JsonKernelStream::~JsonKernelStream() { std::fclose(spill_); }

void JsonKernelStream::add_step(const StepResult& step) {
  buffer_.clear();
  append_kernels(buffer_, step.records);
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), spill_) != buffer_.size())
    io_error("cannot write the JSON document's records to a temporary file (disk full?)");
  offsets_.push_back(offsets_.back() + long(buffer_.size()));
  require_output(double(offsets_.back()), "the JSON document's records (--detail full)", "--detail summary");
}

void JsonKernelStream::copy_step(std::size_t index, std::ostream& out) const {
  if (index + 1 >= offsets_.size()) throw std::logic_error("JSON document: a step's records were not streamed");
  std::fflush(spill_);
  std::fseek(spill_, offsets_[index], SEEK_SET);
  char chunk[1 << 16];
  for (long left = offsets_[index + 1] - offsets_[index]; left > 0;) {
    std::size_t n = std::fread(chunk, 1, std::size_t(std::min<long>(left, sizeof chunk)), spill_);
    if (n == 0) io_error("cannot read back the JSON document's records from a temporary file");
    out.write(chunk, std::streamsize(n));
    left -= long(n);
  }
  std::fseek(spill_, 0, SEEK_END);
}

namespace {
// result.llm of a language-model run (RunResult::llm, plus the workload's memory facts); null for
// workloads without tokens.
nlohmann::json llm_json(const Workload& workload, const RunResult& r) {
  const LlmMetrics& m = r.llm;
  if (!m.present) return nullptr;
  nlohmann::json by_class = nlohmann::json::object();
  for (const auto& [name, c] : m.by_class)
    by_class[name] = {{"seconds", c.seconds}, {"roofline_floor", c.roofline_floor}, {"kernels", c.records}};
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : m.steps)
    steps.push_back({{"label", s.label}, {"phase", s.phase}, {"tokens", s.tokens}, {"seconds", s.seconds},
                     {"tokens_per_second", s.tokens_per_second}, {"mbu", s.mbu}, {"mfu", s.mfu}});
  nlohmann::json by_operation = nlohmann::json::array();
  for (const auto& [name, op] : m.by_operation)
    by_operation.push_back({{"operation", name}, {"op_class", op.op_class}, {"seconds", op.seconds},
                            {"roofline_floor", op.roofline_floor}, {"times_floor", op.times_floor}, {"kernels", op.records}, {"bound", op.bound},
                            {"lowering", op.lowering}});
  nlohmann::json farthest = nlohmann::json::array();
  for (const auto& k : m.farthest_from_floor)
    farthest.push_back({{"operation", k.operation}, {"kernels", k.records}, {"step", k.step}, {"name", k.name},
                        {"op_class", k.op_class}, {"bound", k.bound},
                        {"seconds", k.seconds}, {"roofline_floor", k.roofline_floor}, {"excess", k.excess},
                        {"ratio", k.ratio}});
  nlohmann::json doc = {{"tokens", m.tokens},
                        {"seconds", m.seconds},
                        {"tokens_per_second", m.tokens_per_second},
                        {"ttft", m.ttft},
                        {"tpot", m.tpot},
                        {"decode_tokens_per_second", m.decode_tokens_per_second},
                        {"prefill_tokens_per_second", m.prefill_tokens_per_second},
                        {"mbu", m.mbu},
                        {"mfu", m.mfu},
                        {"hfu", m.hfu},
                        {"joules_per_token", m.joules_per_token},
                        {"prompt_tokens", m.prompt_tokens},
                        {"joules_per_prompt_token", m.joules_per_prompt_token},
                        {"tokens_per_joule", m.tokens_per_joule},
                        {"time_by_class", by_class},
                        {"time_by_operation", by_operation},
                        {"steps", steps},
                        {"farthest_from_floor", farthest}};
  if (workload.llm) {
    const LlmFacts& f = *workload.llm;
    doc["memory"] = {{"model", f.model}, {"phase", f.phase}, {"batch", f.batch}, {"context", f.context},
                     {"step_tokens", f.step_tokens}, {"max_context", f.max_context}, {"window", f.window},
                     {"weight_bytes", f.weight_bytes}, {"kv_bytes", f.kv_bytes},
                     {"activation_bytes", f.activation_bytes}, {"total_bytes", f.total_bytes()},
                     {"kv_bytes_per_token", f.kv_bytes_per_token},
                     {"activation_bytes_per_token", f.activation_bytes_per_token},
                     {"activation_bytes_per_sequence", f.activation_bytes_per_sequence}};
  }
  return doc;
}
}  // namespace

namespace {
// The document with a placeholder string for each step's kernels (full detail).
nlohmann::json document_json(const Config& config, const Workload& workload, const RunResult& r, const Config* system,
                             JsonDetail detail) {
  nlohmann::json result = result_json(r, detail);
  if (nlohmann::json llm = llm_json(workload, r); !llm.is_null()) result["llm"] = std::move(llm);
  if (nlohmann::json sys = system_json(r); !sys.is_null()) result["system"] = std::move(sys);
  if (nlohmann::json inf = inference_json(r); !inf.is_null()) result["inference"] = std::move(inf);
  if (nlohmann::json sv = serving_json(r); !sv.is_null()) result["serving"] = std::move(sv);
  if (nlohmann::json coll = collective_json(r); !coll.is_null()) result["collective"] = std::move(coll);
  nlohmann::json doc = {{"hwsim", HWSIM_VERSION},
          {"schema_version", kResultSchemaVersion},
          {"chip", {{"name", config.text("name")}, {"file", config.chip_path()}}},
          {"workload", {{"spec", workload.spec}, {"kind", workload.kind}}},
          {"level", r.level},
          {"device", {{"kind", r.device_kind}, {"unit", r.unit}, {"memory_levels", r.memory_levels}}},
          {"config", nlohmann::json::parse(config.resolved_json())},
          {"result", result}};
  if (system)
    doc["system"] = {{"name", system->text("name")}, {"file", system->chip_path()},
                     {"config", nlohmann::json::parse(system->resolved_json())}};
  if (detail == JsonDetail::summary) doc["detail"] = "summary";
  return doc;
}
}  // namespace

void write_run_document(std::ostream& out, const Config& config, const Workload& workload, const RunResult& r,
                        const Config* system, JsonDetail detail, const JsonKernelStream* stream) {
  std::string text = document_json(config, workload, r, system, detail).dump(kIndent);
  // Each placeholder, as dump() escapes it, is replaced by that step's kernels array.
  const std::string marker = nlohmann::json(kPlaceholder).dump();  // "\u0001kernels:" with its quote
  const std::string prefix = marker.substr(0, marker.size() - 1);
  std::string kernels;
  std::size_t at = 0;
  for (std::size_t found; (found = text.find(prefix, at)) != std::string::npos;) {
    out.write(text.data() + at, std::streamsize(found - at));
    std::size_t digits = found + prefix.size(), close = text.find('"', digits);
    std::size_t index = std::stoul(text.substr(digits, close - digits));
    const StepResult& step = r.steps.at(index);
    if (step.records.size() == step.record_count) {
      kernels.clear();
      append_kernels(kernels, step.records);
      out << kernels;
    } else if (stream) {
      stream->copy_step(index, out);
    } else {
      throw std::logic_error("JSON document: the run kept no records of step '" + step.label + "' and streamed none");
    }
    at = close + 1;
  }
  out.write(text.data() + at, std::streamsize(text.size() - at));
}

nlohmann::json run_document(const Config& config, const Workload& workload, const RunResult& r, const Config* system,
                            JsonDetail detail) {
  std::ostringstream text;
  write_run_document(text, config, workload, r, system, detail);
  return nlohmann::json::parse(text.str());
}

}  // namespace hwsim
