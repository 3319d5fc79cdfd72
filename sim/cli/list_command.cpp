#include <fmt/format.h>
#include <iostream>

#include "models/gpu/i_gpu_core.h"
#include "sim/cli/commands.h"
#include "sim/config/config.h"
#include "sim/config/param.h"
#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "sim/registry.h"
#include "sim/validate/measurement.h"
#include "workloads/workload.h"

namespace hwsim {

int list_command(const std::string& what) {
  if (what == "params") {
    for (const auto& d : ParamCatalog::instance().all()) {
      std::string def = d.default_value ? (d.default_value->empty() ? "\"\"" : *d.default_value) : "required";
      fmt::print("{:<36} {:<10} {:<12} {}\n", d.key, type_label(d), def, d.description);
    }
  } else if (what == "chips") {
    for (const auto& name : shipped_chips()) {
      Config c = load_config(name, {});
      fmt::print("{:<10} {}\n", name, c.text("description"));
    }
  } else if (what == "workloads") {
    for (const auto& [name, entry] : WorkloadCatalog::entries()) fmt::print("{:<18} {}\n", name, entry.description);
  } else if (what == "models") {
    for (const auto& [name, entry] : Registry<GpuCoreModel>::entries())
      fmt::print("gpu.core.model = {:<8} {}\n", name, entry.description);
  } else if (what == "kinds") {
    for (const auto& [kind, adapter] : MeasurementKinds::adapters()) fmt::print("{}\n", kind);
  } else {
    std::vector<std::string> valid = {"params", "chips", "workloads", "models", "kinds"};
    usage_error(fmt::format("list: unknown '{}'{}; valid: {}", what, did_you_mean(what, valid), join(valid)));
  }
  return 0;
}

}  // namespace hwsim
