#include "run/program.h"

#include "ops/tensor_ids.h"
#include "workloads/passes/framework_pass.h"

namespace hwsim {

OpGraph* Program::held_graph() const {
  OpGraph* graph = rewritten && *rewritten ? &**rewritten : lowered.get();
  return graph == step.graph ? graph : nullptr;
}

std::string framework_for(const std::string& requested, const DeviceInfo& device) {
  return requested.empty() ? device.framework : requested;
}

namespace {
void build(Program& p, const OpGraph& original, const std::string& framework) {
  p.rewritten.reset(new std::optional<OpGraph>(FrameworkPasses::get(framework).apply(original)));
  const OpGraph& graph = *p.rewritten ? **p.rewritten : original;
  p.step.graph = &graph;
  p.step.order = execution_order(graph);
  p.step.tensors = tensor_ids(graph);
}
}  // namespace

Program make_program(const OpGraph& graph, const std::string& framework) {
  Program p;
  build(p, graph, framework);
  return p;
}

Program make_program(const WorkloadStep& step, const std::string& framework) {
  Program p;
  const OpGraph& original = step_graph(step, p.lowered);
  build(p, original, framework);
  return p;
}

}  // namespace hwsim
