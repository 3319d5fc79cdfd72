#pragma once
// Named, self-registering implementations of an interface (Ramulator 2 style).
//
//   // models/gpu/gpu_device.cpp
//   HWSIM_REGISTER(Device, GpuDevice, "gpu", "SMs running CTA tiles in waves");
//
// A chip file then chooses it by name (kind = "gpu"). Registration happens during
// static initialisation; the project links every object file (one OBJECT library), so no
// registration is dropped by the linker.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/did_you_mean.h"
#include "sim/error.h"

namespace hwsim {

class Config;

template <class Interface>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Interface>(const Config&)>;
  struct Entry {
    std::string description;
    Factory factory;
  };

  static std::map<std::string, Entry>& entries() {
    static std::map<std::string, Entry> map;
    return map;
  }

  static bool add(const std::string& name, std::string description, Factory factory) {
    entries()[name] = Entry{std::move(description), std::move(factory)};
    return true;
  }

  static std::vector<std::string> names() {
    std::vector<std::string> out;
    for (const auto& [name, entry] : entries()) out.push_back(name);
    return out;
  }

  // Builds the implementation called `name`; an unknown name is a configuration error that lists
  // the valid ones. `key` is the config key that chose it, for the error line.
  static std::unique_ptr<Interface> create(const std::string& name, const Config& config,
                                           const std::string& key) {
    auto it = entries().find(name);
    if (it == entries().end()) {
      config_error(key + ": unknown " + std::string(Interface::kind_name) + " '" + name +
                   "'; known: " + join(names()) + did_you_mean(name, names()));
    }
    return it->second.factory(config);
  }
};

#define HWSIM_REGISTER_CONCAT2(a, b) a##b
#define HWSIM_REGISTER_CONCAT(a, b) HWSIM_REGISTER_CONCAT2(a, b)
#define HWSIM_REGISTER(Interface, Impl, name, description)                                       \
  static const bool HWSIM_REGISTER_CONCAT(registered_, __LINE__) = ::hwsim::Registry<Interface>::add( \
      name, description, [](const ::hwsim::Config& c) -> std::unique_ptr<Interface> {          \
        return std::make_unique<Impl>(c);                                                        \
      })

}  // namespace hwsim
