#include "models/cluster/system.h"

#include <fmt/format.h>

#include "sim/error.h"
#include "sim/units.h"

namespace hwsim {

class System::DeviceHost : public sc_core::sc_module {
 public:
  DeviceHost(sc_core::sc_module_name name, const Config& chip) : sc_core::sc_module(name), device(make_device(chip)) {}
  std::unique_ptr<Device> device;
};

System::System(const Config& system_config)
    : spec_(SystemSpec::from_config(system_config)), topology_(build_topology(spec_)) {}

System::~System() = default;

Device& System::add_device(const std::string& scope, const Config& chip) {
  devices_.push_back(std::make_unique<DeviceHost>(scope.c_str(), chip));
  return *devices_.back()->device;
}

Fabric& System::add_fabric(const std::string& name) {
  fabrics_.push_back(std::make_unique<Fabric>(name.c_str(), topology_, spec_.tuning));
  return *fabrics_.back();
}

void System::check_devices(std::int64_t devices, const std::string& workload, const std::string& needs) const {
  if (devices > spec_.devices())
    workload_error(fmt::format("workload '{}': {}; system {} has {}", workload, needs, spec_.name, spec_.devices()));
}

std::string System::describe_fabric() const {
  const SystemSpec& s = spec_;
  std::string up;
  switch (s.topology) {
    case ScaleUpTopology::switch_fabric: up = fmt::format("{} switch chip(s)", s.switches); break;
    case ScaleUpTopology::all_to_all: up = "direct links between every pair"; break;
    case ScaleUpTopology::pcie: up = s.p2p ? "PCIe host bridge" : "PCIe host bridge, staged through host memory"; break;
    case ScaleUpTopology::torus: {
      up = "torus ";
      for (std::size_t i = 0; i < s.torus.size(); ++i) up += (i ? "x" : "") + std::to_string(s.torus[i]);
      break;
    }
  }
  std::string text = fmt::format("{} × {} {} link(s) of {} per device, {}", s.devices_per_node, s.links,
                                 s.scale_up.technology, format_quantity(s.scale_up.bandwidth, Dimension::bandwidth), up);
  if (s.network && s.nodes > 1)
    text += fmt::format("; {} nodes, {} NIC(s) of {} each, fat tree of radix {}{}", s.nodes, s.nics,
                        format_quantity(s.scale_out.bandwidth, Dimension::bandwidth), s.switch_radix,
                        s.rail_optimised ? ", rail-optimised" : "");
  return text;
}

void System::check_connected(std::int64_t used) const {
  const Topology& t = topology_;
  // Every device the workload uses must reach device 0 (routes are found lazily; this says it up front).
  std::vector<char> seen(boost::num_vertices(t.graph()), 0);
  std::vector<TopoVertexId> stack{t.device_vertex(0)};
  seen[stack.back()] = 1;
  while (!stack.empty()) {
    TopoVertexId v = stack.back();
    stack.pop_back();
    for (auto [e, end] = boost::out_edges(v, t.graph()); e != end; ++e) {
      TopoVertexId w = boost::target(*e, t.graph());
      if (!seen[w]) seen[w] = 1, stack.push_back(w);
    }
  }
  for (std::int64_t d = 0; d < used; ++d)
    if (!seen[t.device_vertex(d)])
      config_error(fmt::format("{}: device {} cannot be reached from device 0 (no links join them)", t.source(), d));
}

}  // namespace hwsim
