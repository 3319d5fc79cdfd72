#include "models/systolic/pipeline_estimate.h"

#include <algorithm>

namespace hwsim {

std::vector<std::int64_t> split_over_cores(std::int64_t units, int cores, std::int64_t steps_per_unit) {
  std::vector<std::int64_t> steps(std::size_t(cores), 0);
  for (int c = 0; c < cores; ++c) {
    std::int64_t mine = units / cores + (c < units % cores ? 1 : 0);
    steps[std::size_t(c)] = mine * steps_per_unit;
  }
  return steps;
}

double estimate_phase(const Phase& phase, const SystolicChip& chip) {
  const PipelineStep& s = phase.step;
  double bandwidth = chip.usable_hbm_bandwidth();
  std::int64_t busiest = *std::max_element(phase.steps.begin(), phase.steps.end());
  if (busiest == 0) return 0;
  double compute = double(busiest) * s.busy(chip.step_overhead);
  double memory = double(phase.total_steps()) * (s.load_bytes + s.store_bytes) / bandwidth;
  return std::max(compute, memory) + chip.hbm_latency + (s.load_bytes + s.store_bytes) / bandwidth;
}

}  // namespace hwsim
