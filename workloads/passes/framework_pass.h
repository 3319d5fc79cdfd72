#pragma once
// Frontend passes: "which kernels a framework launches" for a step's op graph, apart from both the
// model builders (which know shapes only) and the hardware. A pass rewrites an op graph into the
// graph of work units a framework would hand the device:
//   eager — PyTorch eager: every composite op (Op::parts) becomes one kernel per part;
//   fused — a serving engine's fused kernels: composite ops stay one kernel each (identity);
//   xla   — XLA-style fusion: elementwise producers and consumers fused into the matmul they feed
//           or follow, or into one vector pass (Op::fused records what was absorbed).
// A device names its default (DeviceInfo::framework); a workload may ask for another
// (`kernels=` in LLM specs). Passes are pure and deterministic, and register by name.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ops/op_graph.h"

namespace hwsim {

// Returns the rewritten graph, or nothing when the pass leaves this graph as it is (the caller then
// uses the input: no copy).
using FrameworkPass = std::function<std::optional<OpGraph>(const OpGraph&)>;

struct FrameworkEntry {
  std::string description;
  FrameworkPass apply;
};

class FrameworkPasses {
 public:
  static std::map<std::string, FrameworkEntry>& entries();
  static bool add(const std::string& name, std::string description, FrameworkPass pass);
  static std::vector<std::string> names();
  // The pass called `name`; an unknown name is a UserError(workload) listing the known ones.
  static const FrameworkEntry& get(const std::string& name);
};

#define HWSIM_REGISTER_FRAMEWORK(name, description, pass)                                  \
  static const bool HWSIM_REGISTER_CONCAT(framework_registered_, __LINE__) =              \
      ::hwsim::FrameworkPasses::add(name, description, pass)

}  // namespace hwsim

#include "sim/registry.h"  // HWSIM_REGISTER_CONCAT
