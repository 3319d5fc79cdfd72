#include "workloads/passes/framework_pass.h"

#include "sim/did_you_mean.h"
#include "sim/error.h"

namespace hwsim {

std::map<std::string, FrameworkEntry>& FrameworkPasses::entries() {
  static std::map<std::string, FrameworkEntry> map;
  return map;
}

bool FrameworkPasses::add(const std::string& name, std::string description, FrameworkPass pass) {
  entries()[name] = FrameworkEntry{std::move(description), std::move(pass)};
  return true;
}

std::vector<std::string> FrameworkPasses::names() {
  std::vector<std::string> out;
  for (const auto& [name, entry] : entries()) out.push_back(name);
  return out;
}

const FrameworkEntry& FrameworkPasses::get(const std::string& name) {
  auto it = entries().find(name);
  if (it == entries().end())
    workload_error("kernels=" + name + ": unknown framework pass; known: " + join(names()) +
                   did_you_mean(name, names()));
  return it->second;
}

}  // namespace hwsim
