#include "workloads/serve/serve_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <numbers>

#include "sim/did_you_mean.h"
#include "sim/engine/systemc.h"
#include "sim/error.h"
#include "sim/input_file.h"
#include "sim/units.h"
#include "workloads/llm/parallel_layout.h"
#include "workloads/passes/framework_pass.h"
#include "workloads/serve/request_files.h"
#include "workloads/spec.h"

namespace hwsim {

std::optional<double> whole_text_number(const std::string& text) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (...) {
    return std::nullopt;
  }
  if (used == 0 || used != text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

ServeRandom::ServeRandom(std::uint64_t seed) : engine_(seed) {}

double ServeRandom::uniform() { return double(engine_() >> 11) * 0x1.0p-53; }

std::int64_t ServeRandom::uniform_int(std::int64_t a, std::int64_t b) {
  return a + std::min(b - a, std::int64_t(uniform() * double(b - a + 1)));
}

double ServeRandom::exponential(double rate) { return -std::log(1.0 - uniform()) / rate; }

double ServeRandom::normal(double mean, double stddev) {
  double u1 = 1.0 - uniform();  // (0, 1]: log defined
  double u2 = uniform();
  return mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

std::int64_t LengthDistribution::draw(ServeRandom& rng) const {
  switch (kind) {
    case Kind::fixed: return value;
    case Kind::uniform: return rng.uniform_int(lo, hi);
    case Kind::normal: return std::clamp(std::int64_t(std::llround(rng.normal(mean, stddev))), lo, hi);
  }
  return value;
}

namespace {

// A latency bound: a time with its unit (200ms, 0.2s, 50us) or a plain number of seconds; 0 = none.
double slo_seconds(const WorkloadSpec& spec, const std::string& key) {
  if (!spec.has(key)) return 0;
  std::string text = spec.word(key, ""), why;
  auto q = parse_quantity(text, &why);
  if (q && q->dimension == Dimension::none && q->value > 0 && q->value <= 3600) return q->value;
  auto t = parse_quantity_as(text, Dimension::time, &why);
  if (!t || *t <= 0 || *t > 3600)
    workload_error(fmt::format("workload '{}': {}: '{}' is not a latency ({}; e.g. {}=200ms, or 0.2 seconds)",
                               shorten(spec.text(), 200), key, shorten(text), t ? "must be > 0 and at most 1 h" : why, key));
  return *t;
}

[[noreturn]] void spec_fail(const std::string& spec, const std::string& field, const std::string& what) {
  workload_error(fmt::format("workload '{}': {}: {}", spec, field, what));
}

std::int64_t whole(const std::string& text, const std::string& field, const std::string& spec, std::int64_t least = 1) {
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (...) {
    used = 0;
  }
  if (used == 0 || used != text.size() || v < least)
    spec_fail(spec, field, least == 1 ? fmt::format("'{}' is not a positive whole number", text)
                                      : fmt::format("'{}' is not a whole number >= {}", text, least));
  return v;
}

double real(const std::string& text, const std::string& field, const std::string& spec) {
  auto v = whole_text_number(text);
  if (!v) spec_fail(spec, field, fmt::format("'{}' is not a number", text));
  return *v;
}

// "A..B" → {A, B}, A <= B.
std::pair<std::int64_t, std::int64_t> range(const std::string& text, const std::string& field, const std::string& spec,
                                            std::int64_t least) {
  auto dots = text.find("..");
  if (dots == std::string::npos) spec_fail(spec, field, fmt::format("'{}' is not a range A..B", text));
  auto lo = whole(text.substr(0, dots), field, spec, least), hi = whole(text.substr(dots + 2), field, spec, least);
  if (lo > hi) spec_fail(spec, field, fmt::format("range {}..{} is empty", lo, hi));
  return {lo, hi};
}

}  // namespace

LengthDistribution parse_length(const std::string& text, const std::string& field, const std::string& spec,
                                std::int64_t least) {
  LengthDistribution d;
  const std::string hint = " (a whole number, uniform:A..B or normal:MEAN/STD/MIN..MAX)";
  if (text.rfind("uniform:", 0) == 0) {
    d.kind = LengthDistribution::Kind::uniform;
    std::tie(d.lo, d.hi) = range(text.substr(8), field, spec, least);
  } else if (text.rfind("normal:", 0) == 0) {
    d.kind = LengthDistribution::Kind::normal;
    std::string rest = text.substr(7);
    auto s1 = rest.find('/'), s2 = rest.find('/', s1 == std::string::npos ? s1 : s1 + 1);
    if (s1 == std::string::npos || s2 == std::string::npos) spec_fail(spec, field, "'" + text + "' is malformed" + hint);
    d.mean = real(rest.substr(0, s1), field, spec);
    d.stddev = real(rest.substr(s1 + 1, s2 - s1 - 1), field, spec);
    if (d.stddev < 0) spec_fail(spec, field, "the standard deviation must be >= 0");
    std::tie(d.lo, d.hi) = range(rest.substr(s2 + 1), field, spec, least);
  } else {
    if (text.find_first_not_of("0123456789") != std::string::npos) spec_fail(spec, field, "'" + text + "' is malformed" + hint);
    d.value = whole(text, field, spec, least);
  }
  return d;
}

namespace {

// The most tokens (prompt and output, over every request) a serve run simulates: each output
// token is a slot in an engine step, and past this a run takes hours (1,000 requests of 200
// tokens, 2·10^5, take seconds to a minute).
constexpr double kMaxServeTokens = 5e7;

void check_serve_work(const std::vector<ServeRequest>& requests, const std::string& spec) {
  double prompt = 0, output = 0;
  for (const auto& r : requests) prompt += double(r.prompt), output += double(r.output);
  if (prompt + output > kMaxServeTokens)
    spec_fail(spec, "requests", fmt::format("{} requests of {:.3g} prompt and {:.3g} output tokens in all are more than "
                                            "the {:.0e} tokens a serve run simulates (hours of work): fewer requests "
                                            "or shorter lengths", requests.size(), prompt, output, kMaxServeTokens));
}

// Requests at `rate` (Poisson; inf: all at once): lengths drawn from prompt= and output=, or
// sampled from a dataset file (dataset=).
std::vector<ServeRequest> draw_requests(const WorkloadSpec& spec, const std::string& dataset,
                                        RequestFileColumns& columns) {
  const std::string& t = spec.text();
  std::int64_t n = spec.positive_int("requests", 100, 1000000);  // bounded: each request is simulated
  std::string rate_text = spec.word("rate", "inf");
  double rate = std::numeric_limits<double>::infinity();
  if (rate_text != "inf") {
    rate = real(rate_text, "rate", t);
    if (rate <= 0) spec_fail(t, "rate", fmt::format("{} requests/s: must be > 0 (or inf: all at once)", rate_text));
    if (!(rate >= kMinSpecReal && rate <= kMaxSpecReal))  // the range of a spec's reals (workloads/spec.h)
      spec_fail(t, "rate", fmt::format("{} requests/s is out of range (a number between {:g} and {:g}, or inf)",
                                       rate_text, kMinSpecReal, kMaxSpecReal));
  }
  const auto seed = std::uint64_t(spec.non_negative_int("seed", 0));
  std::vector<ServeRequest> out;
  if (!dataset.empty()) {
    for (const char* f : {"prompt", "output"})
      if (spec.has(f)) spec_fail(t, f, "comes from the dataset file; leave it out with dataset=");
    out = sample_dataset(read_serve_dataset(dataset, &columns), n, rate, seed);
  } else {
    LengthDistribution prompt = parse_length(spec.word("prompt", "128"), "prompt", t);
    LengthDistribution output = parse_length(spec.word("output", "128"), "output", t);
    ServeRandom rng(seed);
    double at = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      ServeRequest r;
      r.id = i;
      if (std::isfinite(rate)) at += rng.exponential(rate);
      r.arrival = at;
      r.prompt = prompt.draw(rng);
      r.output = output.draw(rng);
      out.push_back(r);
    }
  }
  const double now = out.empty() ? 0 : out.back().arrival;
  // The simulated-time horizon (sim/engine/systemc.h): arrivals past it cannot be simulated.
  if (now > kMaxSimulatedSeconds)
    spec_fail(t, "rate", fmt::format("{} requests at {} requests/s arrive over {:.3g} s, beyond the engine's range of "
                                     "{:.0f} s (about 5 hours): a higher rate or fewer requests",
                                     n, rate_text, now, kMaxSimulatedSeconds));
  return out;
}

}  // namespace

ServeSpec parse_serve_spec(const WorkloadSpec& spec) {
  const std::string& t = spec.text();
  ServeSpec s;
  s.arch = spec_architecture(spec);
  s.dtypes.weights = spec.dtype("weights", DType::bf16);
  s.dtypes.act = spec.dtype("act", DType::bf16);
  s.dtypes.kv = spec.dtype("kv", s.dtypes.act);
  s.framework = spec.word("kernels", "");
  if (!s.framework.empty() && !FrameworkPasses::entries().count(s.framework))
    spec_fail(t, "kernels", fmt::format("'{}' is not one of {}", s.framework, join(FrameworkPasses::names())));
  std::string trace = spec.word("trace", ""), dataset = spec.word("dataset", "");
  RequestFileColumns columns;
  if (!trace.empty() && !dataset.empty())
    spec_fail(t, "dataset", "give trace= (arrivals and lengths) or dataset= (lengths, arriving at rate=), not both");
  if (!trace.empty()) {
    for (const char* f : {"requests", "rate", "prompt", "output"})
      if (spec.has(f)) spec_fail(t, f, "comes from the trace file; leave it out with trace=");
    if (spec.has("seed") && !spec.has("draft") && !spec.has("priority"))
      spec_fail(t, "seed", "the requests come from the trace file; a seed only seeds the draft's acceptance draws "
                           "and priority= draws");
    s.requests = read_serve_trace(trace, &columns);
  } else {
    s.requests = draw_requests(spec, dataset, columns);
  }
  check_serve_work(s.requests, t);
  std::stable_sort(s.requests.begin(), s.requests.end(),
                   [](const ServeRequest& a, const ServeRequest& b) { return a.arrival < b.arrival; });
  std::string batching = spec.word("batching", "continuous");
  if (batching != "continuous" && batching != "static")
    spec_fail(t, "batching", fmt::format("'{}' is not continuous or static", batching));
  s.continuous = batching == "continuous";
  s.max_batch = spec.positive_int("max_batch", s.max_batch);
  s.max_tokens_per_step = spec.positive_int("max_tokens_per_step", s.max_tokens_per_step);
  s.chunked_prefill = spec.boolean("chunked_prefill", true);
  s.block = spec.positive_int("block", s.block);
  s.gpu_memory_utilization = spec.positive_real("gpu_memory_utilization", s.gpu_memory_utilization);
  if (s.gpu_memory_utilization > 1)
    spec_fail(t, "gpu_memory_utilization", fmt::format("{} is above 1 (a fraction of device memory)", s.gpu_memory_utilization));
  s.kv_blocks = spec.positive_int("kv_blocks", 0);
  s.context_bucket = spec.positive_int("context_bucket", s.context_bucket);
  std::string reuse = spec.word("reuse", "true");
  if (reuse != "true" && reuse != "false" && reuse != "ops")
    spec_fail(t, "reuse", fmt::format("'{}' is not true, false or ops (ops: compose step times from op shapes, an "
                                      "approximation)", reuse));
  s.reuse = reuse != "false", s.reuse_ops = reuse == "ops";
  s.slo_ttft = slo_seconds(spec, "slo_ttft");
  s.slo_tpot = slo_seconds(spec, "slo_tpot");
  s.slo_e2el = slo_seconds(spec, "slo_e2el");
  s.seed = std::uint64_t(spec.non_negative_int("seed", 0));
  parse_serve_options(spec, s);
  parse_request_sharing(spec, columns, s);
  std::vector<std::string> valid = {"model", "requests", "rate", "prompt", "output", "seed", "trace", "dataset", "batching",
                                    "max_batch", "max_tokens_per_step", "chunked_prefill", "block",
                                    "gpu_memory_utilization", "kv_blocks", "context_bucket", "reuse", "slo_ttft", "slo_tpot", "slo_e2el",
                                    "weights", "act", "kv", "kernels"};
  for (const auto& f : serve_option_fields()) valid.push_back(f);
  for (const auto& f : serve_sharing_fields()) valid.push_back(f);
  for (const auto& f : architecture_fields()) valid.push_back(f);
  spec.reject_unused(valid);
  for (const ModelArchitecture* m : {&s.arch, &s.speculative.draft}) {
    if (m->name.empty()) continue;
    for (const ServeRequest& r : s.requests)
      if (r.prompt + r.output > m->max_context)
        workload_error(fmt::format("workload '{}': request {} holds {} tokens (prompt {} + output {}), above {}'s "
                                   "max_context {}", t, r.id, r.prompt + r.output, r.prompt, r.output, m->name,
                                   m->max_context));
  }
  if (!s.chunked_prefill)
    for (const ServeRequest& r : s.requests)
      if (r.prompt > s.max_tokens_per_step)
        workload_error(fmt::format("workload '{}': request {}'s prompt of {} tokens exceeds max_tokens_per_step {} "
                                   "without chunked prefill (chunked_prefill=true, or a larger max_tokens_per_step)",
                                   t, r.id, r.prompt, s.max_tokens_per_step));
  return s;
}

}  // namespace hwsim
