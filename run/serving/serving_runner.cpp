// The "serving" runner: requests over time (docs/serving.md) on one chip or a system. Builds the
// serving deployment (run/serving/serving_deployment: instances on devices, the router) and, with
// a draft model, a second one without it on devices and links of its own (the baseline), runs them
// in one SystemC elaboration and derives every metric once (RunCollector over the distinct engine
// passes' records, with the serving part from the engines' log). Knows no kind of hardware.
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <stdexcept>

#include "models/cluster/system.h"
#include "run/metrics/collector.h"
#include "run/metrics/serving_metrics.h"
#include "run/runner.h"
#include "run/serving/serving_deployment.h"
#include "sim/arith.h"
#include "sim/error.h"
#include "sim/registry.h"
#include "sim/units.h"

namespace hwsim {
namespace {

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

// The serving figures, from the engines' log, once the run's sums are derived.
class ServingPart : public MetricsPart {
 public:
  ServingPart(const ServeSpec& spec, const ServeSpec& plain, ServingDeployment& run, ServingDeployment* baseline,
              ServingLog& log, ServingSetting setting)
      : spec_(spec), plain_(plain), run_(run), baseline_(baseline), log_(log), setting_(std::move(setting)) {}

  void finish(RunResult& result, const ResultBuilder&) override {
    result.serving = compute_serving_metrics(spec_, run_, log_, setting_);
    ServingMetrics& m = result.serving;
    m.energy = result.energy * result.devices;  // every device of the deployment
    m.average_power = result.average_power;
    m.joules_per_output_token = ratio(m.energy, double(m.output_tokens));
    m.output_tokens_per_joule = ratio(double(m.output_tokens), m.energy);
    std::optional<ServingMetrics> base;
    if (baseline_) {
      ServingLog blog = baseline_->take_log();
      base = compute_serving_metrics(plain_, *baseline_, blog, setting_);
    }
    result.serving.speculative = speculative_metrics(spec_, result.serving, run_.engines().front()->scheduler().pool(),
                                                     base ? &*base : nullptr);
  }

 private:
  const ServeSpec &spec_, &plain_;
  ServingDeployment& run_;
  ServingDeployment* baseline_;
  ServingLog& log_;
  ServingSetting setting_;
};

// Every pass on its instance's timeline, and the gaps between them idle, to the run's end (its last
// step's); returns that end: the run's seconds.
double add_timeline(RunCollector& collector, const ServingLog& log, std::size_t instances) {
  double span = 0;
  for (const ServingStep& st : log.steps) span = std::max(span, st.start + st.seconds);
  std::vector<std::vector<const PassWork*>> by_instance(instances);
  for (const PassWork& p : log.passes) by_instance[std::size_t(p.instance)].push_back(&p);
  for (std::size_t i = 0; i < instances; ++i) {
    double busy_until = 0;  // an instance runs its passes one after another
    for (const PassWork* p : by_instance[i]) {
      collector.add_idle(i, busy_until, p->start);
      collector.add_span(i, *p->totals, p->start, p->end);
      busy_until = p->end;
    }
    collector.add_idle(i, busy_until, span);
  }
  return span;
}

class ServingRunner : public Runner {
 public:
  explicit ServingRunner(const Config&) {}

  RunResult run(const RunRequest& request) override {
    const Workload& workload = request.workload;
    const ServeSpec& spec = *workload.serve;
    const ServeLayout& l = spec.layout;
    if (!request.system && l.devices() > 1)
      workload_error(fmt::format("workload '{}': {}: give a system of chips (--system NAME, e.g. --system h100x2; "
                                 "hwsim list systems)", workload.spec, devices_needed(l)));
    init_systemc();
    std::unique_ptr<System> system;
    if (request.system) {
      system = std::make_unique<System>(*request.system);
      system->check_devices(l.devices(), workload.spec, devices_needed(l));
    }
    StepCache cache;
    OpMemo ops;
    ServingSetup setup = setup_of(request.chip, workload, spec);
    setup.keep_records = request.streams.keep_records;
    if (system) setup.fabric = &system->add_fabric("fabric"), setup.system = &system->spec();
    ServingDeployment deployment("serving", spec, request.chip, cache, ops, setup);
    // Speculation: the same requests without it, on devices (and links) of their own.
    ServeSpec plain = spec;
    plain.speculative = SpeculativeSpec{};
    std::unique_ptr<ServingDeployment> baseline;
    if (spec.speculative.on() && spec.speculative.baseline) {
      ServingSetup b = setup;
      b.record_distinct = false;
      if (system) b.fabric = &system->add_fabric("baseline_fabric");
      baseline = std::make_unique<ServingDeployment>("baseline", plain, request.chip, cache, ops, b);
    }
    sc_core::sc_start();
    rethrow_simulation_failure();
    if (!deployment.finished() || (baseline && !baseline->finished()))
      throw std::logic_error("workload '" + workload.spec + "': the serving engines stopped with requests unfinished");
    ServingLog log = deployment.take_log();
    std::vector<double> ranks;  // each instance's device stands for its tp devices
    for (const auto& e : deployment.engines()) ranks.push_back(double(e->devices().size()));
    RunCollector collector(workload, deployment.engines().front()->device_info(), request.streams, ranks);
    ServingSetting setting{system ? system->spec().name : "", setup.host_link_bandwidth};
    collector.add_part(std::make_unique<ServingPart>(spec, plain, deployment, baseline.get(), log, setting));
    double span = add_timeline(collector, log, ranks.size());
    for (StepResult& step : log.distinct) collector.keep_step(std::move(step));
    return collector.finish(span);
  }
};

}  // namespace

HWSIM_REGISTER(Runner, ServingRunner, "serving", "requests over time on serving engines, on a chip or a system");

}  // namespace hwsim
