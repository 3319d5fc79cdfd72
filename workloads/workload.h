#pragma once
// A workload: what to run, as one or more steps, each an op graph. Workload kinds register by
// name ("gemm", "decode", ...) with a builder from a WorkloadSpec; presets are names whose
// builder fills in defaults and delegates.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "workloads/op_graph.h"
#include "workloads/spec.h"

namespace hwsim {

struct WorkloadStep {
  std::string label;  // "step", "prefill", "decode@513", ...
  OpGraph graph;
};

struct Workload {
  std::string kind;          // registered name that built it ("gemm")
  std::string spec;          // the spec text as given
  std::vector<WorkloadStep> steps;
};

using WorkloadBuilder = std::function<Workload(const WorkloadSpec&)>;

struct WorkloadEntry {
  std::string description;   // one line, with the fields it takes
  WorkloadBuilder build;
};

class WorkloadCatalog {
 public:
  static std::map<std::string, WorkloadEntry>& entries();
  static bool add(const std::string& name, std::string description, WorkloadBuilder build);
  // Parses and builds; unknown names list the registered ones.
  static Workload build(const std::string& spec_text);
};

#define HWSIM_REGISTER_WORKLOAD(name, description, builder)                              \
  static const bool HWSIM_REGISTER_CONCAT(workload_registered_, __LINE__) =             \
      ::hwsim::WorkloadCatalog::add(name, description, builder)

}  // namespace hwsim

#include "sim/registry.h"  // HWSIM_REGISTER_CONCAT
