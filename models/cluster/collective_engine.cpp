#include "models/cluster/collective_engine.h"

#include <fmt/format.h>

#include "sim/engine/systemc.h"

namespace hwsim {

const std::shared_ptr<const RecordSchema>& collective_schema() {
  static const auto schema = std::make_shared<const RecordSchema>(RecordSchema{
      {},
      {{"bytes", Rollup::none}, {"ranks", Rollup::none}, {"groups", Rollup::none}, {"algbw", Rollup::none},
       {"busbw", Rollup::none}, {"link_bytes", Rollup::sum}, {"rounds", Rollup::sum}, {"overlapped", Rollup::sum}},
      {}});
  return schema;
}

namespace {

// Runs one round: waits its latency, starts every transfer, waits for the last to arrive. Returns
// the bytes it put on links (every hop counted).
double run_round(const std::vector<Transfer>& round, const CollectivePlan& plan, const SystemSpec& s, Fabric& fabric) {
  int p = int(plan.protocol);
  double hop = 0;
  for (const auto& t : round) {
    if (t.from == t.to) continue;
    const Route& r = fabric.route(t.from, t.to);
    hop = std::max(hop, r.latency + (r.crosses_network ? s.tuning.network_step_latency[std::size_t(p)] : 0));
  }
  double latency = double(plan.steps_per_round) * (s.tuning.step_latency[std::size_t(p)] + hop);
  if (latency > 0) sc_core::wait(to_sc_time(latency));
  std::size_t pending = round.size();
  double link_bytes = 0;
  for (const auto& t : round) link_bytes += fabric.link_bytes_of(t.from, t.to, t.bytes);
  if (pending == 0) return 0;
  sc_core::sc_event done;
  double overhead = plan.overhead;
  for (const auto& t : round)
    fabric.transfer(
        t.from, t.to, t.bytes, overhead,
        [&pending, &done] {
          if (--pending == 0) done.notify();
        },
        t.engine_share);
  sc_core::wait(done);
  return link_bytes;
}

}  // namespace

WorkRecord run_collective(const std::string& name, const CollectiveOp& op, const RankGroups& groups,
                          const SystemSpec& s, Fabric& fabric, double step_start) {
  CollectivePlan plan = plan_collective(op, groups, s, fabric);
  double start = sim_now(), link_bytes = 0;
  double fixed = plan.fixed;
  if (fixed > 0) sc_core::wait(to_sc_time(fixed));
  std::vector<Transfer> round;
  for (std::int64_t r = 0; r < plan.rounds; ++r) {
    round.clear();
    plan.transfers(r, round);
    link_bytes += run_round(round, plan, s, fabric);
  }
  WorkRecord rec;
  rec.name = name;
  rec.op_class = std::string(collective_name(op.kind));
  rec.config = fmt::format("{} {} ×{} group{} of {}", plan.algorithm, protocol_name(plan.protocol), groups.size(),
                           groups.size() == 1 ? "" : "s", groups.front().size());
  rec.dtype = std::string(dtype_name(op.dtype));
  rec.start = start - step_start;
  rec.end = sim_now() - step_start;
  rec.launch = fixed;
  rec.schema = collective_schema();
  double seconds = rec.end - rec.start;
  rec.breakdown.overhead = std::min(fixed, seconds);
  rec.breakdown.communication = seconds - rec.breakdown.overhead;
  rec.energy = 0;  // the links' energy is the system's (RunResult::system.link_energy), not a device's
  double algbw = seconds > 0 ? op.bytes / seconds : 0;
  std::int64_t n = std::int64_t(groups.front().size());
  rec.details = {op.bytes, double(n), double(groups.size()), algbw, algbw * bus_bandwidth_factor(op.kind, n),
                 link_bytes, double(plan.rounds), 0};
  return rec;
}

}  // namespace hwsim
