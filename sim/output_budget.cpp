#include "sim/output_budget.h"

#include <cmath>
#include <fmt/format.h>

#include "sim/error.h"
#include "sim/units.h"

namespace hwsim {

namespace {
double& limit() {
  static double bytes = kDefaultMaxOutput;
  return bytes;
}
}  // namespace

void set_output_limit(double bytes) {
  if (!(bytes > 0) || !std::isfinite(bytes)) usage_error("--max-output: expected a size greater than zero (e.g. 64GiB)");
  limit() = bytes;
}

double output_limit() { return limit(); }

void require_output(double bytes, const std::string& what, const std::string& hint) {
  if (bytes <= limit()) return;
  workload_error(fmt::format("{} passes {}, more than the {} that --max-output allows ({}, or a larger --max-output)",
                             what, format_binary_bytes(bytes, 3), format_binary_bytes(limit(), 3), hint));
}

}  // namespace hwsim
