#include "app/serving_tp_step.h"

#include "models/cluster/collective_engine.h"
#include "sim/engine/systemc.h"

namespace hwsim {

std::vector<WorkRecord> run_tp_step(Device& device, const StepProgram& program, const RankGroups& ranks,
                                    const SystemSpec& system, Fabric& fabric) {
  const OpGraph& g = *program.graph;
  double start = sim_now();
  std::vector<WorkRecord> records;
  StepProgram segment = program;
  auto flush = [&] {  // the device ops since the last collective, shifted to the step's clock
    if (segment.order.empty()) return;
    double begin = sim_now() - start;
    for (WorkRecord& r : device.run_step(segment)) {
      r.start += begin, r.end += begin;
      records.push_back(std::move(r));
    }
    segment.order.clear();
  };
  segment.order.clear();
  for (OpVertex v : program.order) {
    if (!is_collective(g[v])) {
      segment.order.push_back(v);
      continue;
    }
    flush();
    records.push_back(run_collective(g[v].name, std::get<CollectiveOp>(g[v].shape), ranks, system, fabric, start));
  }
  flush();
  return records;
}

}  // namespace hwsim
