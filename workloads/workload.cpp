#include "workloads/workload.h"

#include <fmt/format.h>

#include "sim/did_you_mean.h"
#include "sim/input_file.h"
#include "sim/error.h"

namespace hwsim {

std::map<std::string, WorkloadEntry>& WorkloadCatalog::entries() {
  static std::map<std::string, WorkloadEntry> map;
  return map;
}

bool WorkloadCatalog::add(const std::string& name, std::string description, WorkloadBuilder build) {
  entries()[name] = WorkloadEntry{std::move(description), std::move(build)};
  return true;
}

Workload WorkloadCatalog::build(const std::string& spec_text) {
  WorkloadSpec spec = WorkloadSpec::parse(spec_text);
  auto it = entries().find(spec.name());
  if (it == entries().end()) {
    std::vector<std::string> names;
    for (const auto& [n, e] : entries()) names.push_back(n);
    workload_error(fmt::format("workload '{}': unknown workload '{}'{}; known: {} (hwsim list workloads)",
                               shorten(spec_text, 200), shorten(spec.name()), did_you_mean(spec.name(), names),
                               join(names)));
  }
  Workload w = it->second.build(spec);
  w.kind = spec.name();
  w.spec = spec_text;
  return w;
}

}  // namespace hwsim

namespace hwsim {

const OpGraph& step_graph(const WorkloadStep& step, std::unique_ptr<OpGraph>& holder) {
  if (!step.lower) return step.graph;
  holder.reset(new OpGraph(step.lower()));  // initialised from the prvalue itself: no copy
  return *holder;
}

}  // namespace hwsim
