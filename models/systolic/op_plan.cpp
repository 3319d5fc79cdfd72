#include "models/systolic/op_plan.h"

#include <algorithm>
#include <numeric>

namespace hwsim {

double PipelineStep::busy(double step_overhead) const {
  return std::max({mxu_seconds, vpu_seconds, vmem_seconds}) + step_overhead;
}

std::int64_t Phase::total_steps() const { return std::accumulate(steps.begin(), steps.end(), std::int64_t(0)); }

std::string OpPlan::config() const {
  std::string out;
  for (const auto& p : phases) {
    if (!out.empty()) out += " | ";
    out += p.config;
  }
  return out;
}

}  // namespace hwsim
