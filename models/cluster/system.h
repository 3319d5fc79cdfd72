#pragma once
// A system of chips as a run uses it, built in one place (run/system_runner, run/serving): the
// typed spec (system_spec.h) and its topology graph, the devices the run simulates (each in its
// own SystemC module scope, so several devices of one kind get distinct module names) and the
// links (a Fabric per independent stream of traffic: a serving baseline never meets the run it is
// compared with on a link). Knows links, not GPUs: a device is a vertex.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/cluster/fabric.h"
#include "models/cluster/system_spec.h"
#include "models/cluster/topology.h"
#include "ops/device.h"
#include "sim/config/config.h"

namespace hwsim {

class System {
 public:
  // From a validated system config (kind = "system").
  explicit System(const Config& system_config);
  System(const System&) = delete;
  System& operator=(const System&) = delete;
  ~System();

  const SystemSpec& spec() const { return spec_; }
  const Topology& topology() const { return topology_; }

  // A device built from `chip` in module scope `scope` ("stage0"); the system owns it.
  Device& add_device(const std::string& scope, const Config& chip);
  // Links over the topology, as a module named `name`; the system owns them.
  Fabric& add_fabric(const std::string& name);

  // Refuses (UserError(workload)) a run that needs more devices than the system has; `needs` says
  // what needs them ("tp=2 × dp=1 needs 2 devices").
  void check_devices(std::int64_t devices, const std::string& workload, const std::string& needs) const;
  // Refuses (UserError(config)) a run whose devices 0..used-1 are not all joined by links.
  void check_connected(std::int64_t used) const;
  // One line: the links per device, the scale-up fabric and, across nodes, the network.
  std::string describe_fabric() const;

 private:
  class DeviceHost;
  SystemSpec spec_;
  Topology topology_;  // built in place: its graph is not moved
  std::vector<std::unique_ptr<DeviceHost>> devices_;
  std::vector<std::unique_ptr<Fabric>> fabrics_;
};

}  // namespace hwsim
