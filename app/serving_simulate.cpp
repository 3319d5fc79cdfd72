#include "app/serving_simulate.h"

#include <fmt/format.h>

#include <memory>
#include <stdexcept>

#include "app/serving_metrics.h"
#include "app/serving_runner.h"
#include "app/simulate.h"
#include "models/cluster/topology.h"
#include "sim/error.h"
#include "sim/units.h"

namespace hwsim {

namespace {

// The links of a system run: its spec and topology, and a fabric per run of requests (so a
// baseline never meets the run it is compared with on a link).
struct Links {
  const SystemSpec& spec;
  const Topology& topology;
  std::vector<std::unique_ptr<Fabric>> fabrics;
  Fabric* add(const char* name) {
    fabrics.push_back(std::make_unique<Fabric>(name, topology, spec.tuning));
    return fabrics.back().get();
  }
};

std::string devices_needed(const ServeLayout& l) {
  if (l.disaggregated())
    return fmt::format("disaggregate={}P{}D with prefill_tp={} and decode_tp={} needs {} devices", l.prefill,
                       l.decode, l.prefill_tp, l.decode_tp, l.devices());
  return fmt::format("tp={} × dp={} needs {} devices", l.tp, l.dp, l.devices());
}

ServingSetup setup_of(const Config& chip, const Workload& workload, const ServeSpec& spec) {
  ServingSetup s;
  s.framework = workload.framework;
  s.host_link_bandwidth = chip.number("host_link.bandwidth") * chip.number("host_link.efficiency");
  s.host_copy_overhead = chip.number("host_link.copy_overhead");
  if (spec.preemption == Preemption::swap && s.host_link_bandwidth <= 0)
    workload_error(fmt::format("workload '{}': preemption=swap moves KV blocks over the host link, and {} describes "
                               "none (host_link.bandwidth; --set host_link.bandwidth=64GB/s, or preemption=recompute)",
                               workload.spec, chip.text("name")));
  return s;
}

RunResult serve(const Config& chip, const Workload& workload, Links* links) {
  const ServeSpec& spec = *workload.serve;
  StepCache cache;
  OpMemo ops;
  ServingSetup setup = setup_of(chip, workload, spec);
  if (links) setup.fabric = links->add("fabric"), setup.system = &links->spec;
  ServingRunner runner("serving", spec, chip, cache, ops, setup);
  // Speculation: the same requests without it, on devices (and links) of their own.
  ServeSpec plain = spec;
  plain.speculative = SpeculativeSpec{};
  std::unique_ptr<ServingRunner> baseline;
  if (spec.speculative.on() && spec.speculative.baseline) {
    ServingSetup b = setup;
    b.record_distinct = false;
    if (links) b.fabric = links->add("baseline_fabric");
    baseline = std::make_unique<ServingRunner>("baseline", plain, chip, cache, ops, b);
  }
  sc_core::sc_start();
  rethrow_simulation_failure();
  if (!runner.finished() || (baseline && !baseline->finished()))
    throw std::logic_error("workload '" + workload.spec + "': the serving engines stopped with requests unfinished");
  ServingLog log = runner.take_log();
  RunResult result;
  describe_device(result, runner.engines().front()->device_info());
  result.steps = std::move(log.distinct);
  finalize(result);
  ServingSetting setting{links ? links->spec.name : "", setup.host_link_bandwidth};
  result.serving = compute_serving_metrics(spec, runner, log, setting);
  std::optional<ServingMetrics> base;
  if (baseline) {
    ServingLog blog = baseline->take_log();
    base = compute_serving_metrics(plain, *baseline, blog, setting);
  }
  result.serving.speculative = speculative_metrics(spec, result.serving, runner.engines().front()->scheduler().pool(),
                                                   base ? &*base : nullptr);
  return result;
}

}  // namespace

RunResult simulate_serving(const Config& config, const Workload& workload) {
  const ServeLayout& l = workload.serve->layout;
  if (l.devices() > 1)
    workload_error(fmt::format("workload '{}': {}: give a system of chips (--system NAME, e.g. --system h100x2; "
                               "hwsim list systems)", workload.spec, devices_needed(l)));
  init_systemc();
  return serve(config, workload, nullptr);
}

RunResult simulate_serving_system(const Config& system, const Config& chip, const Workload& workload) {
  init_systemc();
  SystemSpec spec = SystemSpec::from_config(system);
  const ServeLayout& l = workload.serve->layout;
  if (l.devices() > spec.devices())
    workload_error(fmt::format("workload '{}': {}; system {} has {}", workload.spec, devices_needed(l), spec.name,
                               spec.devices()));
  Topology topology = build_topology(spec);  // built in place: its graph is not moved
  Links links{spec, topology, {}};
  return serve(chip, workload, &links);
}

}  // namespace hwsim
