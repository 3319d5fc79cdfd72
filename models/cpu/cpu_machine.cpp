#include "models/cpu/cpu_machine.h"

#include <algorithm>
#include <limits>

#include "sim/engine/traffic_window.h"
#include "sim/record_head.h"

namespace hwsim {

std::shared_ptr<const RecordSchema> cpu_schema() {
  // Energy: the package (idle plus the busy cores) over the op, and the DRAM bytes.
  static const auto schema = std::make_shared<const RecordSchema>(RecordSchema{
      {"l3", "dram"}, {{"engine", Rollup::none}, {"threads", Rollup::none}, {"gflops", Rollup::none}},
      {"cores", "dram"}});
  return schema;
}

CpuMachine::CpuMachine(sc_core::sc_module_name name, const CpuChip& chip)
    : sc_core::sc_module(name), chip_(chip), schema_(cpu_schema()), timers_("timers"), flows_("flows") {
  levels_.push_back(flows_.network().add_resource("l3", chip_.l3_bandwidth));
  levels_.push_back(flows_.network().add_resource("dram", chip_.dram_bandwidth * chip_.dram_efficiency));
}

void CpuMachine::part_done() {
  if (--pending_ == 0) op_done_.notify(sc_core::SC_ZERO_TIME);
}

// One transfer: the level's first-access latency, then a flow over it (capped by the threads).
void CpuMachine::start_transfer(double bytes, std::size_t level, double latency, double cap) {
  if (bytes <= 0) return;
  ResourceId r = levels_[level];
  ++pending_;
  timers_.after(latency, [this, bytes, r, cap]() {
    flows_.start(FlowSpec{bytes, cap, {{r, 1.0}}}, [this]() { part_done(); });
  });
}

WorkRecord CpuMachine::run_op(const CpuWork& w, double step_start) {
  double start = sim_now();
  TrafficWindow traffic(flows_.network(), levels_, start);
  wait(to_sc_time(w.overhead));
  pending_ = 1;
  timers_.after(w.compute_seconds, [this]() { part_done(); });
  start_transfer(w.l3_bytes, 0, chip_.l3_latency, std::numeric_limits<double>::infinity());
  start_transfer(w.dram_bytes, 1, chip_.dram_latency, chip_.threads_dram_cap(w.threads));
  wait(op_done_);
  double end = sim_now();
  return record(w, start - step_start, end - step_start, traffic.since(flows_.network(), end));
}

// Breakdown: the overhead, then the arithmetic; memory = the time transfers outlasted it. The
// roofline is DRAM's: min_bytes are the bytes that must cross it as lowered.
WorkRecord CpuMachine::record(const CpuWork& w, double start, double end, const std::vector<double>& traffic) const {
  WorkRecord r = record_head(w, start, end, schema_, traffic);
  r.min_bytes = w.min_bytes;
  r.peak_memory_bandwidth = chip_.dram_bandwidth;
  double duration = end - start;
  r.breakdown.overhead = std::min(w.overhead, duration);
  r.breakdown.compute = std::min(w.compute_seconds, duration - r.breakdown.overhead);
  r.breakdown.memory = std::max(0.0, duration - r.breakdown.overhead - r.breakdown.compute);
  double busy = duration - r.breakdown.overhead;
  r.details = {w.engine == "simd" ? 0.0 : 1.0, w.threads, busy > 0 ? w.flops / busy / 1e9 : 0};
  r.energy_parts.push_back((chip_.idle_watts + chip_.core_watts * w.threads) * duration);
  r.energy_parts.push_back(chip_.dram_joules_per_byte * traffic[1]);
  r.energy = r.energy_parts[0] + r.energy_parts[1];
  return r;
}

}  // namespace hwsim
