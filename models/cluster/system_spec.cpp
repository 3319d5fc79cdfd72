#include "models/cluster/system_spec.h"

#include <fmt/format.h>

#include "sim/config/config.h"
#include "sim/error.h"

namespace hwsim {

namespace {
// Largest graph a system file may describe: 1e7 link bundles is about 2 GB of Boost.Graph storage.
constexpr double kMaxLinkBundles = 1e7;

// "16x16" → {16, 16}; 1 to 3 dimensions, each ≥ 1, at most 1e6 chips in all.
std::vector<std::int64_t> parse_torus(const Config& c) {
  const ParamValue& v = c.value("scale_up.torus");
  std::vector<std::int64_t> dims;
  std::string text = v.text;
  std::size_t pos = 0;
  auto bad = [&] {
    config_error(fmt::format("{}: scale_up.torus: '{}' is not a torus shape (expected 1 to 3 whole numbers "
                             "joined by x, e.g. 16x16 or 4x4x8)", v.origin, text));
  };
  if (text.empty()) bad();
  double chips = 1;
  while (pos <= text.size()) {
    std::size_t x = text.find('x', pos);
    std::string part = text.substr(pos, x == std::string::npos ? std::string::npos : x - pos);
    if (part.empty() || part.size() > 7 || part.find_first_not_of("0123456789") != std::string::npos) bad();
    std::int64_t d = std::stoll(part);
    if (d < 1) bad();
    dims.push_back(d);
    chips *= double(d);
    if (x == std::string::npos) break;
    pos = x + 1;
  }
  if (dims.size() > 3) bad();
  if (chips > 1e6) config_error(fmt::format("{}: scale_up.torus: {} chips is out of range (at most 1000000)", v.origin, text));
  return dims;
}

LinkClass link_class(const Config& c, const std::string& component, std::string technology,
                     const std::string& bandwidth_key) {
  LinkClass l;
  l.technology = std::move(technology);
  l.bandwidth = c.number(bandwidth_key);
  l.latency = c.number(component + ".latency");
  l.energy_per_byte = 8 * c.number(component + ".energy_per_bit");
  return l;
}

ScaleUpTopology topology_of(const std::string& t) {
  if (t == "all_to_all") return ScaleUpTopology::all_to_all;
  if (t == "pcie") return ScaleUpTopology::pcie;
  if (t == "torus") return ScaleUpTopology::torus;
  return ScaleUpTopology::switch_fabric;
}
}  // namespace

SystemSpec SystemSpec::from_config(const Config& c) {
  SystemSpec s;
  s.name = c.text("name");
  s.description = c.text("description");
  s.path = c.chip_path();
  s.chip = c.text("system.chip");
  s.nodes = c.whole("system.nodes");
  s.topology = topology_of(c.text("scale_up.topology"));
  s.devices_per_node = c.whole("scale_up.devices");
  if (s.topology == ScaleUpTopology::torus) {
    s.torus = parse_torus(c);
    s.devices_per_node = 1;
    for (auto d : s.torus) s.devices_per_node *= d;
  }
  s.wraparound = c.flag("scale_up.wraparound");
  s.links = c.whole("scale_up.links");
  s.switches = c.whole("scale_up.switches");
  s.host_bandwidth = c.number("scale_up.host_bandwidth");
  s.p2p = c.flag("scale_up.p2p");
  s.scale_up = link_class(c, "scale_up", c.text("scale_up.link"), "scale_up.link_bandwidth");
  s.network = c.text("scale_out.topology") == "fat_tree";
  s.nics = c.whole("scale_out.nics");
  s.switch_radix = c.whole("scale_out.switch_radix");
  s.rail_optimised = c.flag("scale_out.rail_optimised");
  s.scale_out = link_class(c, "scale_out", "network", "scale_out.nic_bandwidth");
  if (double(s.nodes) * double(s.devices_per_node) > 1e6)
    config_error(fmt::format("{}: system.nodes: {} nodes of {} devices is out of range (at most 1000000 devices)",
                             c.value("system.nodes").origin, s.nodes, s.devices_per_node));
  // Link bundles the builder will make inside nodes (the network adds about one per NIC port).
  double dpn = double(s.devices_per_node), per_node = s.topology == ScaleUpTopology::all_to_all ? dpn * (dpn - 1) / 2
                                                   : s.topology == ScaleUpTopology::switch_fabric ? dpn * double(s.switches)
                                                   : s.topology == ScaleUpTopology::torus ? 3 * dpn : dpn;
  if (per_node * double(s.nodes) > kMaxLinkBundles)
    config_error(fmt::format("{}: scale_up: {:.0f} link bundles ({} nodes of {} devices, {}) is out of range (at most "
                             "{:.0f})", s.path, per_node * double(s.nodes), s.nodes, s.devices_per_node,
                             c.text("scale_up.topology"), kMaxLinkBundles));
  if (s.nodes > 1 && !s.network)
    config_error(fmt::format("{}: scale_out.topology: {} nodes need a network between them (scale_out.topology = "
                             "\"fat_tree\"), or system.nodes = 1", c.value("system.nodes").origin, s.nodes));
  if (s.switch_radix < 2)
    config_error(fmt::format("{}: scale_out.switch_radix: a switch needs at least 2 ports",
                             c.value("scale_out.switch_radix").origin));
  CollectiveTuning& t = s.tuning;
  t.launch_overhead = c.number("collective.launch_overhead");
  t.link_efficiency = c.number("collective.link_efficiency");
  t.network_efficiency = c.number("collective.network_efficiency");
  t.engine_bandwidth = double(c.whole("collective.channels")) * c.number("collective.channel_bandwidth");
  t.compute_share = c.number("collective.compute_share");
  t.base_latency = {c.number("collective.ll.base_latency"), c.number("collective.ll128.base_latency"),
                    c.number("collective.simple.base_latency")};
  t.step_latency = {c.number("collective.ll.step_latency"), c.number("collective.ll128.step_latency"),
                    c.number("collective.simple.step_latency")};
  t.efficiency = {c.number("collective.ll.efficiency"), c.number("collective.ll128.efficiency"), 1.0};
  t.network_step_latency = {c.number("collective.ll.network_step_latency"),
                            c.number("collective.ll128.network_step_latency"),
                            c.number("collective.simple.network_step_latency")};
  t.low_latency_protocols = c.flag("collective.low_latency_protocols");
  t.nvls = c.flag("collective.nvls.enabled");
  t.nvls_efficiency = c.number("collective.nvls.efficiency");
  t.nvls_base_latency = c.number("collective.nvls.base_latency");
  if (t.nvls && s.topology != ScaleUpTopology::switch_fabric)
    config_error(fmt::format("{}: collective.nvls.enabled: NVLS reduces in the scale-up switches; scale_up.topology "
                             "is \"{}\", not \"switch\"", c.value("collective.nvls.enabled").origin,
                             c.text("scale_up.topology")));
  return s;
}

}  // namespace hwsim
