#pragma once
// A step as a device receives it, built in one place for every runner: its op graph (lowered now
// for a step lowered just in time), the framework pass's rewrite (workloads/passes), the execution
// order and each vertex's tensor identities.
#include <memory>
#include <optional>
#include <string>

#include "ops/device.h"
#include "workloads/workload.h"

namespace hwsim {

// A StepProgram and the graphs it points into. An OpGraph (a Boost adjacency_list) has no move,
// only a deep copy, so the graphs are held by pointer and a Program moves without copying them.
struct Program {
  std::unique_ptr<OpGraph> lowered;                   // a step lowered just in time; null otherwise
  std::unique_ptr<std::optional<OpGraph>> rewritten;  // the framework pass's rewrite, when it rewrote
  StepProgram step;                                   // over the rewrite, else the graph given
  // The graph `step` runs when this program holds it (its rewrite, or its graph lowered just in
  // time); null when it runs the caller's graph (which a runner must not change).
  OpGraph* held_graph() const;
};

// The framework pass a workload runs under on a device: the workload's (`kernels=`), else the
// device's default (DeviceInfo::framework).
std::string framework_for(const std::string& requested, const DeviceInfo& device);

// graph → framework pass → execution order → tensor identities. The caller keeps `graph` alive
// while the program is used.
Program make_program(const OpGraph& graph, const std::string& framework);
// The same for a workload step: its graph, or the graph its `lower` builds now (held by the program).
Program make_program(const WorkloadStep& step, const std::string& framework);

}  // namespace hwsim
