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
  std::int64_t busiest = *std::max_element(phase.steps.begin(), phase.steps.end());
  if (busiest == 0) return 0;
  double compute = double(busiest) * s.busy(chip.step_overhead) + phase.once_seconds;
  double one_step = chip.hbm_seconds(s.load_bytes * (1 - s.filter_share), s.load_bytes * s.filter_share, s.store_bytes);
  double memory = double(phase.total_steps()) * one_step;
  return std::max(compute, memory) + chip.hbm_latency + one_step;
}

}  // namespace hwsim
