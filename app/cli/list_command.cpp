#include <algorithm>
#include <fmt/format.h>
#include <iostream>

#include "app/cli/commands.h"
#include "app/validate/measurement.h"
#include "sim/config/config.h"
#include "sim/config/device_kinds.h"
#include "sim/config/param.h"
#include "sim/device/device.h"
#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "sim/registry.h"
#include "workloads/passes/framework_pass.h"
#include "workloads/workload.h"

namespace hwsim {

namespace {
void list_params(const std::string& kind) {
  if (!kind.empty()) {
    auto kinds = device_kinds();
    kinds.push_back("system");  // the keys of a system file
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
      usage_error(fmt::format("list params: unknown kind '{}'{}; known: {}", kind, did_you_mean(kind, kinds),
                              join(kinds)));
  }
  for (const auto& d : ParamCatalog::instance().all()) {
    if (!kind.empty() && !applies_to(d, kind)) continue;
    std::string def = d.default_value ? (d.default_value->empty() ? "\"\"" : *d.default_value) : "required";
    std::string kinds = d.kinds.empty() ? "all" : join(d.kinds, ",");
    bool numeric = d.type != ParamType::choice && d.type != ParamType::text && d.type != ParamType::boolean;
    std::string range = numeric ? " [" + describe_range(d) + "]" : "";  // the valid range (param.h)
    fmt::print("{:<36} {:<12} {:<10} {:<12} {}{}\n", d.key, kinds, type_label(d), def, d.description, range);
  }
}
}  // namespace

int list_command(const std::string& what, const std::string& kind) {
  if (!kind.empty() && what != "params") usage_error(fmt::format("list {}: takes no kind (only list params KIND)", what));
  if (what == "params") {
    list_params(kind);
  } else if (what == "chips") {
    for (const auto& name : shipped_chips()) {
      Config c = load_config(name, {});
      fmt::print("{:<18} {:<9} {}\n", name, c.kind(), c.text("description"));
    }
  } else if (what == "systems") {
    for (const auto& name : shipped_systems()) {
      Config c = load_system_config(name, {});
      fmt::print("{:<16} {:<10} {}\n", name, c.text("system.chip"), c.text("description"));
    }
  } else if (what == "workloads") {
    for (const auto& [name, entry] : WorkloadCatalog::entries()) fmt::print("{:<18} {}\n", name, entry.description);
  } else if (what == "models") {
    // Device kinds; a kind's own model choices are parameters of it (hwsim list params KIND).
    for (const auto& [name, entry] : Registry<Device>::entries()) fmt::print("kind = {:<10} {}\n", name, entry.description);
  } else if (what == "frameworks") {
    for (const auto& [name, entry] : FrameworkPasses::entries()) fmt::print("kernels={:<8} {}\n", name, entry.description);
  } else if (what == "kinds") {
    for (const auto& [kind_name, adapter] : MeasurementKinds::adapters()) fmt::print("{}\n", kind_name);
  } else {
    std::vector<std::string> valid = {"params", "chips", "systems", "workloads", "models", "kinds", "frameworks"};
    usage_error(fmt::format("list: unknown '{}'{}; valid: {}", what, did_you_mean(what, valid), join(valid)));
  }
  return 0;
}

}  // namespace hwsim
