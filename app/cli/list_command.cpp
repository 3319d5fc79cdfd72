#include <algorithm>
#include <filesystem>
#include <sstream>
#include <fmt/format.h>
#include <iostream>

#include "app/cli/commands.h"
#include "sim/measurement/measurement.h"
#include "sim/config/config.h"
#include "ops/device.h"
#include "sim/config/param.h"
#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "sim/input_file.h"
#include "sim/registry.h"
#include "workloads/llm/architecture.h"
#include "workloads/passes/framework_pass.h"
#include "workloads/workload.h"

namespace hwsim {

namespace {

// What `hwsim list` can list, and what each is: printed by `hwsim list` alone.
const std::vector<std::pair<std::string, std::string>>& lists() {
  static const std::vector<std::pair<std::string, std::string>> all = {
      {"chips", "shipped chip files (--chip NAME)"},
      {"systems", "shipped system files (--system NAME)"},
      {"workloads", "workload presets and kinds (--workload / -w)"},
      {"llms", "language models a workload names (model=NAME, or model=path/to/m.toml)"},
      {"models", "the simulator's device models (kind = ...), then the language models, labelled"},
      {"params", "every chip and system key with its type, default, range and meaning (params KIND: one kind's)"},
      {"frameworks", "framework kernel habits (kernels=NAME in a workload)"},
      {"kinds", "measurement record kinds (hwsim validate)"},
      {"kernels", "shipped kernel programs for the warp model (--kernel FILE), each with its first line and example"}};
  return all;
}

std::vector<std::string> list_names() {
  std::vector<std::string> names;
  for (const auto& [name, what] : lists()) names.push_back(name);
  return names;
}

void list_lists() {
  fmt::print("hwsim list WHAT, where WHAT is one of:\n");
  for (const auto& [name, what] : lists()) fmt::print("  {:<11} {}\n", name, what);
}

// Language models: the files in workloads/llm/models, with the shape a student compares.
void list_llms(const std::string& indent) {
  for (const auto& name : architecture_names()) {
    ModelArchitecture a = load_architecture(name);
    std::string moe = a.is_moe() ? fmt::format(", {} experts (top {})", a.experts, a.top_k) : "";
    fmt::print("{}model={:<16} {} layers, hidden {}, {} heads ({} kv), ffn {}{}\n", indent, name, a.layers, a.hidden,
               a.heads, a.kv_heads, a.ffn, moe);
  }
}

// workloads/kernels/*.hwk: the file, what its first comment line says, and the command it gives.
void list_kernels() {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(HWSIM_SOURCE_DIR) / "workloads" / "kernels", ec))
    if (e.path().extension() == ".hwk") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::string first, example;
    std::istringstream in(read_input_file(f.string(), "kernel program"));
    for (std::string line; std::getline(in, line) && line.rfind("//", 0) == 0;) {
      if (first.empty()) first = line.substr(std::min<std::size_t>(3, line.size()));
      if (auto at = line.find("hwsim "); at != std::string::npos && example.empty()) example = line.substr(at);
    }
    fmt::print("workloads/kernels/{:<24} {}\n", f.filename().string(), first);
    if (!example.empty()) fmt::print("  {:<40} {}\n", "", example);
  }
}

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

// Every key of the chip with its value and where it comes from (file:line, or the default).
void list_chip_params(const std::string& chip) {
  Config c = load_chip(chip, {});
  for (const auto& d : ParamCatalog::instance().all()) {
    if (!applies_to(d, c.kind())) continue;
    const ParamValue& v = c.value(d.key);
    std::string value = !v.text.empty() ? v.text
                        : d.type == ParamType::boolean ? (v.flag ? "true" : "false")
                                                       : fmt::format("{:g}", v.number);
    fmt::print("{:<40} {:<22} {}\n", d.key, value, v.origin == "default" ? "(default)" : v.origin);
  }
}

int list_command(const std::string& what, const std::string& kind, const std::string& chip) {
  if (!kind.empty() && what != "params") usage_error(fmt::format("list {}: takes no kind (only list params KIND)", what));
  if (!chip.empty() && what != "params") usage_error(fmt::format("list {}: takes no --chip (only list params --chip C)", what));
  if (!chip.empty()) {
    list_chip_params(chip);
    return 0;
  }
  if (what.empty()) {
    list_lists();
  } else if (what == "params") {
    list_params(kind);
  } else if (what == "chips") {
    for (const auto& name : shipped_chips()) {
      Config c = load_chip(name, {});
      fmt::print("{:<18} {:<9} {}\n", name, c.kind(), c.text("description"));
    }
  } else if (what == "systems") {
    for (const auto& name : shipped_systems()) {
      Config c = load_system_config(name, {});
      fmt::print("{:<16} {:<10} {}\n", name, c.text("system.chip"), c.text("description"));
    }
  } else if (what == "workloads") {
    for (const auto& [name, entry] : WorkloadCatalog::entries()) fmt::print("{:<18} {}\n", name, entry.description);
  } else if (what == "llms") {
    list_llms("");
  } else if (what == "models") {
    // Device kinds; a kind's own model choices are parameters of it (hwsim list params KIND).
    fmt::print("device models (a chip file's kind; its own model choices: hwsim list params KIND):\n");
    for (const auto& [name, entry] : Registry<Device>::entries()) fmt::print("  kind = {:<10} {}\n", name, entry.description);
    fmt::print("language models (a workload's model=; also hwsim list llms):\n");
    list_llms("  ");
  } else if (what == "frameworks") {
    for (const auto& [name, entry] : FrameworkPasses::entries()) fmt::print("kernels={:<8} {}\n", name, entry.description);
  } else if (what == "kernels") {
    list_kernels();
  } else if (what == "kinds") {
    for (const auto& [kind_name, what] : MeasurementKinds::descriptions()) fmt::print("{:<18} {}\n", kind_name, what);
  } else {
    std::vector<std::string> valid = list_names();
    usage_error(fmt::format("list: unknown '{}'{}; valid: {}", what, did_you_mean(what, valid), join(valid)));
  }
  return 0;
}

}  // namespace hwsim
