#include "workloads/llm/moe.h"

#include <algorithm>
#include <cmath>

namespace hwsim {

std::int64_t expected_distinct_experts(std::int64_t experts, std::int64_t picks) {
  if (experts <= 1 || picks <= 0) return 1;
  double e = double(experts);
  double expected = e * (1.0 - std::pow(1.0 - 1.0 / e, double(picks)));
  return std::clamp<std::int64_t>(std::llround(expected), 1, experts);
}

}  // namespace hwsim
