// Prefix caching's and priorities' figures of a serve run (docs/serving.md, "Prefix caching",
// "Priorities"): vLLM's prefix cache hit rate and, per priority value, the requests' TTFT and E2EL.
#include <map>

#include "run/metrics/serving_metrics.h"
#include "sim/arith.h"

namespace hwsim {

void sharing_metrics(const ServeSpec& spec, const ServingLog& log, ServingMetrics& m) {
  m.prefix_caching = spec.prefix_caching && spec.continuous;
  m.prefix_queries = log.prefix_queries, m.prefix_hits = log.prefix_hits;
  m.prefix_preempted_queries = log.prefix_preempted_queries, m.prefix_preempted_hits = log.prefix_preempted_hits;
  m.prefix_evictions = log.prefix_evictions;
  m.prefix_hit_rate = ratio(double(log.prefix_hits), double(log.prefix_queries));
  m.scheduling = spec.priority_scheduling ? "priority" : "fcfs";
  std::map<std::int64_t, std::pair<std::vector<double>, std::vector<double>>> by_class;  // TTFTs, E2ELs
  for (const ServedRequest& r : log.requests) {
    auto& c = by_class[r.priority];
    c.first.push_back(r.first_token - r.arrival), c.second.push_back(r.finish - r.arrival);
  }
  if (!spec.priority_scheduling && by_class.size() < 2) return;  // one class: the run's own figures
  for (auto& [priority, c] : by_class) {
    ServingMetrics::PriorityClass p;
    p.priority = priority, p.requests = std::int64_t(c.first.size());
    p.ttft_s = latency_stats(std::move(c.first)), p.e2e_s = latency_stats(std::move(c.second));
    m.priority_classes.push_back(std::move(p));
  }
}

}  // namespace hwsim
