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
        overlapped_(std::size_t(workload.parallel.pp), 0.0) {}

  void add_step(const StepResult& step) override {
    // A step of one collective alone: a point of the run's bandwidth-against-size curve.
    if (step.records.size() == 1 && step.records.front().schema == collective_schema()) {
      const WorkRecord& k = step.records.front();
      points_.push_back({k.detail("bytes"), k.detail("ranks"), k.seconds, k.detail("algbw"), k.detail("busbw"),
                         k.detail("link_bytes"), k.op_class, k.config, k.dtype});
    } else {
      mixed_ = true;
    }
    for (const auto& k : step.records) {
      if (k.device >= 0 && std::size_t(k.device) < overlapped_.size()) overlapped_[std::size_t(k.device)] += k.hidden;
      if (k.schema == collective_schema()) {
        collective_seconds_ += k.seconds;
        exposed_ += k.breakdown.communication + k.breakdown.overhead;
      }
    }
  }

  void finish(RunResult& r, const ResultBuilder& sums) override {
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
      m.stages.push_back(stage_use(sums.device_totals(std::size_t(st)), st));
      m.flops += m.stages.back().flops * double(m.stages.back().ranks);
      m.memory_bytes += m.stages.back().memory_bytes * double(m.stages.back().ranks);
      m.energy += m.stages.back().energy * double(m.stages.back().ranks);
    }
    if (!mixed_) m.collectives = points_;
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
  // A stage's representative device: what its records did, its idle time and energy included.
  DeviceUse stage_use(const RunTotals& t, std::int64_t stage) const {
    DeviceUse u;
    auto ranks = stage_ranks(workload_.parallel, stage);
    u.ranks = std::int64_t(ranks.size());
    u.label = ranks.size() == 1 ? fmt::format("stage {}: rank {}", stage, ranks.front())
                                : fmt::format("stage {}: ranks {}–{}", stage, ranks.front(), ranks.back());
    u.compute = t.breakdown.compute;
    u.memory = t.breakdown.memory;
    u.communication = t.breakdown.communication;
    u.overhead = t.breakdown.overhead;
    u.idle = t.breakdown.idle;
    u.communication_overlapped = overlapped_[std::size_t(stage)];
    u.flops = t.flops;
    u.memory_bytes = t.traffic.empty() ? 0 : t.traffic.back().bytes;
    u.energy = t.energy;
    if (std::size_t(stage) < workload_.stage_footprint.size())
      u.memory_held = workload_.stage_footprint[std::size_t(stage)].total();
    u.memory_capacity = device_.main_memory().bytes;
    return u;
  }

  const System& system_;
  Fabric& fabric_;
  const Workload& workload_;
  const DeviceInfo& device_;
  std::vector<double> overlapped_;  // per stage: collective seconds hidden behind its compute
  double collective_seconds_ = 0, exposed_ = 0;
  std::vector<CollectivePoint> points_;
  bool mixed_ = false;  // a step that is not one collective alone
};

}  // namespace

std::unique_ptr<MetricsPart> system_metrics(const System& system, Fabric& fabric, const Workload& workload,
                                            const DeviceInfo& device) {
  return std::make_unique<SystemPart>(system, fabric, workload, device);
}

}  // namespace hwsim
