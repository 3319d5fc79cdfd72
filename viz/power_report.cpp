#include "viz/power_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <ostream>

#include "sim/units.h"

namespace hwsim {

namespace {
std::string joules(double j) { return format_quantity(j, Dimension::energy); }
std::string watts(double w) { return format_quantity(w, Dimension::power); }
std::string hertz(double f) { return format_quantity(f, Dimension::frequency); }

// "average 612 W; clock 1.52 GHz average of 1.98 GHz, throttled 94 % of the time under the 700 W
// limit" — or the TDP flag of a device without a clock governor.
std::string power_line(const RunResult& r) {
  const PowerMetrics& p = r.power;
  std::string line = "average " + watts(r.average_power);
  if (r.devices > 1) line += fmt::format(" per device ({:g} devices)", r.devices);
  if (p.max_clock > 0 && p.average_clock > 0) {
    line += fmt::format("; clock {} average of {}", hertz(p.average_clock), hertz(p.max_clock));
    if (p.throttled_seconds > 0)
      line += fmt::format(", held below it {:.0f} % of the time by the {} limit", 100 * p.throttled_share, watts(r.tdp));
    if (r.above_tdp && p.over_limit_joules > 0)
      line += fmt::format("; above the limit only by the {} drawn while the governor caught up (it sets each "
                          "control period's clock from the periods before, and its estimate settles over "
                          "power.dvfs.window)", joules(p.over_limit_joules));
  } else if (r.above_tdp) {
    line += fmt::format(", above the {} TDP (this device models no clock governor)", watts(r.tdp));
  }
  return line;
}
}  // namespace

std::string energy_shares(const RunResult& r) {
  std::string parts;
  for (const auto& p : r.power.by_part) {
    if (p.joules == 0) continue;
    if (!parts.empty()) parts += ", ";
    parts += fmt::format("{} {:.0f} %", p.name, r.energy > 0 ? 100 * p.joules / r.energy : 0.0);
  }
  return parts;
}

void print_power_section(std::ostream& out, const RunResult& r) {
  auto row = [&](std::string_view label, const std::string& value) { fmt::print(out, "  {:<28} {}\n", label, value); };
  row("energy", fmt::format("{}  ({})", joules(r.energy), power_line(r)));
  if (r.power.by_part.size() > 1) row("  by component", energy_shares(r));
  if (r.power.flops_per_joule > 0)
    row("  perf/W", format_quantity(r.power.flops_per_joule, Dimension::flop_rate) + " per W");
}

nlohmann::json power_json(const RunResult& r) {
  const PowerMetrics& p = r.power;
  nlohmann::json parts = nlohmann::json::object();
  for (const auto& e : p.by_part) parts[e.name] = e.joules;
  nlohmann::json trace = nlohmann::json::array();
  for (const auto& s : p.trace) trace.push_back({s.start, s.end, s.watts, s.clock});
  return {{"energy_by_component", parts},
          {"average_power", r.average_power},
          {"limit", r.tdp},
          {"max_clock", p.max_clock},
          {"average_clock", p.average_clock},
          {"min_clock", p.min_clock},
          {"throttled_seconds", p.throttled_seconds},
          {"throttled_share", p.throttled_share},
          {"over_limit_joules", p.over_limit_joules},
          {"flops_per_joule", p.flops_per_joule},
          {"trace_columns", {"start", "end", "watts", "clock"}},
          {"trace", trace}};
}

}  // namespace hwsim
