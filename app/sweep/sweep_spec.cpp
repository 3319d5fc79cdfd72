#include "app/sweep/sweep_spec.h"

#include <fmt/format.h>
#include <set>

#include "app/sweep/sweep_values.h"
#include "sim/error.h"
#include "workloads/spec.h"

namespace hwsim {

SweepAxis parse_vary(const std::string& text, std::size_t held) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    usage_error(fmt::format("--vary '{}': expected KEY=V1,V2,... (e.g. memory.hbm.bandwidth=2TB/s,3.35TB/s)", text));
  SweepAxis axis;
  axis.key = text.substr(0, eq);
  axis.values = expand_sweep_values(axis.key, text.substr(eq + 1), held);
  return axis;
}

std::vector<SweepPoint> sweep_points(const SweepSpec& spec) {
  if (spec.axes.empty()) usage_error("sweep: nothing to vary: give --vary KEY=V1,V2,... or a sweep file with [[vary]]");
  std::set<std::string> seen;
  for (const auto& a : spec.axes)
    if (!seen.insert(a.key).second) usage_error(fmt::format("sweep: {} is varied twice: give its values once", a.key));
  std::vector<SweepPoint> points;
  if (spec.zip) {
    std::size_t n = spec.axes.front().values.size();
    for (const auto& a : spec.axes)
      if (a.values.size() != n)
        usage_error(fmt::format("sweep --zip: {} has {} values but {} has {}: zipped lists need one length",
                                spec.axes.front().key, n, a.key, a.values.size()));
    for (std::size_t i = 0; i < n; ++i) {
      SweepPoint p{i, {}};
      for (const auto& a : spec.axes) p.values.push_back(a.values[i]);
      points.push_back(std::move(p));
    }
    return points;
  }
  double total = 1;
  for (const auto& a : spec.axes) total *= double(a.values.size());
  if (total > double(kMaxSweepPoints))
    usage_error(fmt::format("sweep: {:.0f} points is more than {} (use --zip, or fewer values)", total, kMaxSweepPoints));
  std::vector<std::size_t> at(spec.axes.size(), 0);
  for (std::size_t i = 0; i < std::size_t(total); ++i) {
    SweepPoint p{i, {}};
    for (std::size_t k = 0; k < spec.axes.size(); ++k) p.values.push_back(spec.axes[k].values[at[k]]);
    points.push_back(std::move(p));
    for (std::size_t k = spec.axes.size(); k-- > 0;) {  // the last axis varies fastest
      if (++at[k] < spec.axes[k].values.size()) break;
      at[k] = 0;
    }
  }
  return points;
}

std::string point_workload(const SweepSpec& spec, const SweepPoint& point) {
  WorkloadSpec base = WorkloadSpec::parse(spec.workload);
  std::map<std::string, std::string> fields = base.fields();
  bool changed = false;
  for (std::size_t k = 0; k < spec.axes.size(); ++k)
    if (spec.axes[k].is_workload_field()) fields[spec.axes[k].field()] = point.values[k], changed = true;
  if (!changed) return spec.workload;
  std::string text = base.name();
  char sep = ':';
  for (const auto& [key, value] : fields) text += fmt::format("{}{}={}", sep, key, value), sep = ',';
  return text;
}

std::vector<std::string> point_overrides(const SweepSpec& spec, const SweepPoint& point) {
  std::vector<std::string> out = spec.overrides;
  for (std::size_t k = 0; k < spec.axes.size(); ++k)
    if (!spec.axes[k].is_workload_field() && !spec.axes[k].is_target())
      out.push_back(spec.axes[k].key + "=" + point.values[k]);
  return out;
}

std::pair<std::string, std::string> point_target(const SweepSpec& spec, const SweepPoint& point) {
  std::pair<std::string, std::string> target{spec.chip, spec.system};
  for (std::size_t k = 0; k < spec.axes.size(); ++k) {
    if (spec.axes[k].key == "chip") target = {point.values[k], ""};
    if (spec.axes[k].key == "system") target = {"", point.values[k]};
  }
  return target;
}

}  // namespace hwsim
