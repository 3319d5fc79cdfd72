#include "run/metrics/system_metrics.h"

#include <algorithm>
#include <fmt/format.h>

#include "models/cluster/collective_engine.h"
#include "workloads/parallel_groups.h"

namespace hwsim {
namespace {

class SystemPart : public MetricsPart {
 public:
  SystemPart(const System& system, Fabric& fabric, const Workload& workload, const DeviceInfo& device)
      : system_(system), fabric_(fabric), workload_(workload), device_(device),
        stages_(std::size_t(workload.parallel.pp)), accounted_(stages_.size(), 0.0) {}

  void add_step(const StepResult& step) override {
    for (const auto& k : step.records) {
      add_record(k);
      if (k.schema == collective_schema()) {
        collective_seconds_ += k.seconds;
        exposed_ += k.breakdown.communication + k.breakdown.overhead;
      }
    }
  }

  void finish(RunResult& r) override {
    SystemMetrics& m = r.system;
    const SystemSpec& s = system_.spec();
    const Parallelism& p = workload_.parallel;
    m.present = true;
    m.name = s.name;
    m.chip = device_.name;
    m.fabric = system_.describe_fabric();
    m.devices = s.devices();
    m.devices_used = p.ranks();
    m.layout = fmt::format("tp={} pp={} ep={} dp={}{}", p.tp, p.pp, p.ep, p.dp,
                           p.microbatches > 1 ? fmt::format(" microbatches={}", p.microbatches) : "");
    for (std::int64_t st = 0; st < p.pp; ++st) {
      m.stages.push_back(stage_use(r, st));
      m.flops += m.stages.back().flops * double(m.stages.back().ranks);
      m.memory_bytes += m.stages.back().memory_bytes * double(m.stages.back().ranks);
      m.energy += m.stages.back().energy * double(m.stages.back().ranks);
    }
    m.collective_seconds = collective_seconds_;
    m.communication_exposed = exposed_;
    m.link_bytes = fabric_.link_bytes();
    m.link_energy = fabric_.energy();
    m.energy += m.link_energy;
    for (const auto& use : fabric_.link_use())
      m.busiest_links.push_back(
          {use.name, use.capacity, use.bytes, r.seconds > 0 ? use.bytes / (use.capacity * r.seconds) : 0});
    std::stable_sort(m.busiest_links.begin(), m.busiest_links.end(),
                     [](const LinkLoad& a, const LinkLoad& b) { return a.utilisation > b.utilisation; });
    if (m.busiest_links.size() > 8) m.busiest_links.resize(8);
  }

 private:
  // The record's share of its stage's figures, in run order.
  void add_record(const WorkRecord& k) {
    if (k.device < 0 || std::size_t(k.device) >= stages_.size()) return;
    DeviceUse& u = stages_[std::size_t(k.device)];
    u.compute += k.breakdown.compute;
    u.memory += k.breakdown.memory;
    u.communication += k.breakdown.communication;
    u.overhead += k.breakdown.overhead;
    u.idle += k.breakdown.idle;
    u.communication_overlapped += k.hidden;
    u.flops += k.flops;
    u.memory_bytes += k.memory_bytes;
    u.energy += k.energy;
    accounted_[std::size_t(k.device)] += k.seconds - k.hidden;
  }

  DeviceUse stage_use(const RunResult& r, std::int64_t stage) const {
    DeviceUse u = stages_[std::size_t(stage)];
    auto ranks = stage_ranks(workload_.parallel, stage);
    u.ranks = std::int64_t(ranks.size());
    u.label = ranks.size() == 1 ? fmt::format("stage {}: rank {}", stage, ranks.front())
                                : fmt::format("stage {}: ranks {}–{}", stage, ranks.front(), ranks.back());
    u.idle += std::max(0.0, r.seconds - accounted_[std::size_t(stage)]);
    if (std::size_t(stage) < workload_.stage_footprint.size())
      u.memory_held = workload_.stage_footprint[std::size_t(stage)].total();
    u.memory_capacity = device_.main_memory().bytes;
    return u;
  }

  const System& system_;
  Fabric& fabric_;
  const Workload& workload_;
  const DeviceInfo& device_;
  std::vector<DeviceUse> stages_;   // summed over the stage's records so far
  std::vector<double> accounted_;   // per stage: seconds its records account for
  double collective_seconds_ = 0, exposed_ = 0;
};

}  // namespace

std::unique_ptr<MetricsPart> system_metrics(const System& system, Fabric& fabric, const Workload& workload,
                                            const DeviceInfo& device) {
  return std::make_unique<SystemPart>(system, fabric, workload, device);
}

}  // namespace hwsim
