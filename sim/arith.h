#pragma once
// Small arithmetic every layer uses: integer ceilings for tiling and blocking, and a ratio that
// is 0 (not NaN or infinity) when its denominator is 0, for metrics of empty or instant runs.
#include <cstdint>

namespace hwsim {

constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
constexpr std::int64_t round_up(std::int64_t a, std::int64_t b) { return ceil_div(a, b) * b; }
constexpr double ratio(double part, double whole) { return whole > 0 ? part / whole : 0; }

}  // namespace hwsim
