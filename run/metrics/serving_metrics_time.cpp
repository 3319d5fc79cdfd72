// Per-instance serving figures and the use of the engines over time (serving_metrics.h).
#include <algorithm>
#include <cmath>

#include "run/metrics/serving_metrics.h"
#include "sim/arith.h"

namespace hwsim {

namespace {

const char* role_name(InstanceRole r) {
  switch (r) {
    case InstanceRole::mixed: return "mixed";
    case InstanceRole::prefill: return "prefill";
    case InstanceRole::decode: return "decode";
  }
  return "?";
}

// Occupancy and KV use at kServingSamples evenly spaced instants: per instance, the step running
// then (or the last before it), summed over the instances.
void sample_series(ServingMetrics& m, const std::vector<std::vector<const ServingStep*>>& by_instance) {
  if (m.steps.empty() || m.duration_s <= 0) return;
  std::vector<std::size_t> at(by_instance.size(), 0);
  for (std::size_t i = 0; i < kServingSamples; ++i) {
    ServingMetrics::Sample sm;
    sm.t = m.duration_s * double(i) / double(kServingSamples);
    std::int64_t used = 0;
    for (std::size_t e = 0; e < by_instance.size(); ++e) {
      const auto& steps = by_instance[e];
      if (steps.empty()) continue;
      while (at[e] + 1 < steps.size() && steps[at[e] + 1]->start <= sm.t) ++at[e];
      const ServingStep& s = *steps[at[e]];
      if (s.start > sm.t) continue;  // the instance has not run yet
      bool inside = sm.t < s.start + s.seconds;
      sm.running += inside ? s.sequences : 0;
      sm.waiting += s.waiting;
      used += s.kv_blocks_used;
    }
    sm.kv_use = ratio(double(used), double(m.kv_capacity_blocks));
    m.series.push_back(sm);
  }
}

}  // namespace

void throughput_series(ServingMetrics& m, const std::vector<std::vector<double>>& token_times) {
  if (m.series.empty()) return;
  const double width = m.duration_s / double(m.series.size());
  std::vector<std::int64_t> tokens(m.series.size(), 0);
  for (const auto& times : token_times)
    for (double t : times) {
      auto i = std::size_t(std::clamp(std::floor(t / width), 0.0, double(m.series.size() - 1)));
      ++tokens[i];
    }
  for (std::size_t i = 0; i < m.series.size(); ++i) m.series[i].output_tokens_per_s = ratio(double(tokens[i]), width);
}

void instance_metrics(ServingMetrics& m, const ServingDeployment& runner) {
  std::vector<std::vector<const ServingStep*>> by_instance(runner.engines().size());
  for (const ServingStep& s : m.steps) by_instance[std::size_t(s.instance)].push_back(&s);
  double busy = 0, seq_time = 0, kv_time = 0;
  for (const auto& e : runner.engines()) {
    const KvPool& pool = e->scheduler().pool();
    ServingInstance in;
    in.role = role_name(e->role());
    in.devices = e->devices();
    in.kv_capacity_blocks = pool.blocks, in.kv_capacity_tokens = pool.tokens();
    double seq = 0, kv = 0;
    for (const ServingStep* s : by_instance[std::size_t(e->index())]) {
      in.steps += 1, in.busy_s += s->seconds;
      seq += s->seconds * double(s->sequences);
      double use = ratio(double(s->kv_blocks_used), double(pool.blocks));
      kv += s->seconds * use;
      in.peak_kv_use = std::max(in.peak_kv_use, use);
    }
    for (const ServedRequest& r : m.per_request)
      in.requests += r.instance == e->index() || r.decode_instance == e->index() ? 1 : 0;
    in.mean_batch = ratio(seq, in.busy_s), in.mean_kv_use = ratio(kv, in.busy_s);
    busy += in.busy_s, seq_time += seq, kv_time += kv;
    m.peak_kv_use = std::max(m.peak_kv_use, in.peak_kv_use);
    m.kv_capacity_blocks += in.kv_capacity_blocks, m.kv_capacity_tokens += in.kv_capacity_tokens;
    m.instances.push_back(std::move(in));
  }
  m.mean_batch = ratio(seq_time, busy), m.mean_kv_use = ratio(kv_time, busy);
  sample_series(m, by_instance);
}

}  // namespace hwsim
