#include "app/system_simulate.h"

#include <algorithm>
#include <stdexcept>
#include <fmt/format.h>
#include <memory>

#include "app/llm_metrics.h"
#include "app/serving_simulate.h"
#include "app/simulate.h"
#include "app/system_runner.h"
#include "models/cluster/collective_engine.h"
#include "models/cluster/fabric.h"
#include "models/cluster/system_spec.h"
#include "models/cluster/topology.h"
#include "sim/device/device.h"
#include "sim/error.h"
#include "sim/registry.h"
#include "sim/units.h"
#include "workloads/llm/capacity.h"
#include "workloads/parallel_groups.h"

namespace hwsim {

namespace {

// A device inside its own module scope ("stage1"), so the sc_modules of several devices of one
// kind get distinct names.
class DeviceHost : public sc_core::sc_module {
 public:
  DeviceHost(sc_core::sc_module_name name, const Config& chip)
      : sc_core::sc_module(name), device(Registry<Device>::create(chip.kind(), chip, chip.value("kind").origin + ": kind")) {}
  std::unique_ptr<Device> device;
};

std::string describe_fabric(const SystemSpec& s) {
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

// A layout needs ranks ≤ devices; each stage's devices must hold what the workload keeps there.
void check_fit(const SystemSpec& s, const Workload& w, const DeviceInfo& device) {
  const Parallelism& p = w.parallel;
  if (p.ranks() > s.devices())
    workload_error(fmt::format("workload '{}' needs {} devices (tp={} × pp={} × ep={} × dp={}); system {} has {}",
                               w.spec, p.ranks(), p.tp, p.pp, p.ep, p.dp, s.name, s.devices()));
  double capacity = device.main_memory().bytes;
  if (w.stage_footprint.empty()) check_capacity(device, w);  // one device's worth on each rank
  for (const auto& step : w.steps)  // a collective's buffer must fit each rank
    for (auto [v, end] = boost::vertices(step.graph); v != end; ++v)
      if (const auto* c = std::get_if<CollectiveOp>(&step.graph[*v].shape); c && c->bytes > capacity)
        workload_error(fmt::format("workload '{}' does not fit: {} of {} per rank, a {} {} holds {}", w.spec,
                                   step.graph[*v].name, format_quantity(c->bytes, Dimension::bytes), device.name,
                                   device.main_memory().name, format_quantity(capacity, Dimension::bytes)));
  for (std::size_t stage = 0; stage < w.stage_footprint.size(); ++stage) {
    const DeviceFootprint& f = w.stage_footprint[stage];
    if (f.total() <= capacity) continue;
    std::string advice = w.fit_advice ? w.fit_advice(capacity) : stage_fit_advice(w, stage, capacity);
    workload_error(fmt::format(
        "workload '{}' does not fit: each device of stage {} holds {} (weights {}, KV cache {}, activations {}, "
        "gradients {}, optimizer {}), a {} {} holds {}{}{}",
        w.spec, stage, format_quantity(f.total(), Dimension::bytes), format_quantity(f.weights, Dimension::bytes),
        format_quantity(f.kv_cache, Dimension::bytes), format_quantity(f.activations, Dimension::bytes),
        format_quantity(f.gradients, Dimension::bytes), format_quantity(f.optimizer, Dimension::bytes), device.name,
        device.main_memory().name, format_quantity(capacity, Dimension::bytes), advice.empty() ? "" : ". ", advice));
  }
}

void check_connected(const Topology& t, std::int64_t used) {
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

void summarise(RunResult& r, const SystemSpec& s, const Workload& w, const DeviceInfo& device, Fabric& fabric);

}  // namespace

RunResult simulate_system(const Config& system_config, const Config& chip, const Workload& workload) {
  if (workload.serve) return simulate_serving_system(system_config, chip, workload);  // requests over time
  init_systemc();
  SystemSpec spec = SystemSpec::from_config(system_config);
  Topology topology = build_topology(spec);
  std::int64_t stages = workload.parallel.pp;
  std::vector<std::unique_ptr<DeviceHost>> hosts;
  std::vector<Device*> devices;
  for (std::int64_t s = 0; s < stages; ++s) {
    hosts.push_back(std::make_unique<DeviceHost>(fmt::format("stage{}", s).c_str(), chip));
    devices.push_back(hosts.back()->device.get());
  }
  const DeviceInfo& info = devices.front()->info();
  check_fit(spec, workload, info);
  check_connected(topology, workload.parallel.ranks());
  Fabric fabric("fabric", topology, spec.tuning);
  std::string framework = workload.framework.empty() ? info.framework : workload.framework;
  SystemRunner runner("system_runner", devices, fabric, spec, workload, framework);
  sc_core::sc_start();
  rethrow_simulation_failure();
  if (!runner.finished())
    throw std::logic_error("workload '" + workload.spec + "': the simulation stopped with ops still waiting on each other");
  RunResult result;
  describe_device(result, info);
  result.steps = runner.take_results();
  finalize(result);
  summarise(result, spec, workload, info, fabric);
  result.llm = compute_llm_metrics(workload, result);
  return result;
}

namespace {

DeviceUse stage_use(const RunResult& r, const Workload& w, std::int64_t stage, const DeviceInfo& device) {
  DeviceUse u;
  auto ranks = stage_ranks(w.parallel, stage);
  u.ranks = std::int64_t(ranks.size());
  u.label = ranks.size() == 1 ? fmt::format("stage {}: rank {}", stage, ranks.front())
                              : fmt::format("stage {}: ranks {}–{}", stage, ranks.front(), ranks.back());
  double accounted = 0;
  for (const auto& step : r.steps)
    for (const auto& k : step.records) {
      if (k.device != stage) continue;
      u.compute += k.breakdown.compute;
      u.memory += k.breakdown.memory;
      u.communication += k.breakdown.communication;
      u.overhead += k.breakdown.overhead;
      u.idle += k.breakdown.idle;
      u.communication_overlapped += k.hidden;
      u.flops += k.flops;
      u.memory_bytes += k.memory_bytes;
      u.energy += k.energy;
      accounted += k.seconds - k.hidden;
    }
  u.idle += std::max(0.0, r.seconds - accounted);
  if (std::size_t(stage) < w.stage_footprint.size()) u.memory_held = w.stage_footprint[std::size_t(stage)].total();
  u.memory_capacity = device.main_memory().bytes;
  return u;
}

void summarise(RunResult& r, const SystemSpec& s, const Workload& w, const DeviceInfo& device, Fabric& fabric) {
  SystemMetrics& m = r.system;
  m.present = true;
  m.name = s.name;
  m.chip = device.name;
  m.fabric = describe_fabric(s);
  m.devices = s.devices();
  m.devices_used = w.parallel.ranks();
  const Parallelism& p = w.parallel;
  m.layout = fmt::format("tp={} pp={} ep={} dp={}{}", p.tp, p.pp, p.ep, p.dp,
                         p.microbatches > 1 ? fmt::format(" microbatches={}", p.microbatches) : "");
  for (std::int64_t st = 0; st < p.pp; ++st) {
    m.stages.push_back(stage_use(r, w, st, device));
    m.flops += m.stages.back().flops * double(m.stages.back().ranks);
    m.memory_bytes += m.stages.back().memory_bytes * double(m.stages.back().ranks);
    m.energy += m.stages.back().energy * double(m.stages.back().ranks);
  }
  for (const auto& step : r.steps)
    for (const auto& k : step.records)
      if (k.schema == collective_schema()) {
        m.collective_seconds += k.seconds;
        m.communication_exposed += k.breakdown.communication + k.breakdown.overhead;
      }
  m.link_bytes = fabric.link_bytes();
  m.link_energy = fabric.energy();
  m.energy += m.link_energy;
  for (const auto& use : fabric.link_use())
    m.busiest_links.push_back({use.name, use.capacity, use.bytes, r.seconds > 0 ? use.bytes / (use.capacity * r.seconds) : 0});
  std::stable_sort(m.busiest_links.begin(), m.busiest_links.end(),
                   [](const LinkLoad& a, const LinkLoad& b) { return a.utilisation > b.utilisation; });
  if (m.busiest_links.size() > 8) m.busiest_links.resize(8);
}

}  // namespace
}  // namespace hwsim
