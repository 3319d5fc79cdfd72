#include "models/spatial/spatial_machine.h"

#include <algorithm>

#include "sim/engine/traffic_window.h"
#include "sim/record_head.h"

namespace hwsim {

std::shared_ptr<const RecordSchema> spatial_schema(bool dram) {
  static const auto with_dram = std::make_shared<const RecordSchema>(RecordSchema{
      {"sram", "dram"}, {{"cores", Rollup::none}, {"chips", Rollup::none}, {"gflops", Rollup::none}},
      {"chips", "dram"}});
  static const auto sram_only = std::make_shared<const RecordSchema>(RecordSchema{
      {"sram"}, {{"cores", Rollup::none}, {"chips", Rollup::none}, {"gflops", Rollup::none}}, {"chips", "dram"}});
  return dram ? with_dram : sram_only;
}

SpatialMachine::SpatialMachine(sc_core::sc_module_name name, const SpatialChip& chip)
    : sc_core::sc_module(name), chip_(chip), schema_(spatial_schema(chip.has_dram())), timers_("timers"),
      flows_("flows") {
  auto& net = flows_.network();
  auto [sram, dram, noc, c2c] = capacities();
  levels_.push_back(net.add_resource("sram", sram));
  if (chip_.has_dram()) levels_.push_back(net.add_resource("dram", dram));
  noc_ = net.add_resource("noc", noc);
  c2c_ = net.add_resource("c2c", c2c);
}

std::array<double, 4> SpatialMachine::capacities() const {
  const double n = chip_.chips;
  return {n * chip_.cores() * chip_.sram_bandwidth, n * chip_.dram_bandwidth * chip_.dram_efficiency,
          n * chip_.cores() * chip_.noc_link_bandwidth * chip_.noc_count, n * chip_.c2c_bandwidth};
}

void SpatialMachine::set_chips(double chips) {
  chip_.chips = chips;
  auto [sram, dram, noc, c2c] = capacities();
  auto& net = flows_.network();
  net.set_capacity(levels_[0], sram);
  if (chip_.has_dram()) net.set_capacity(levels_[1], dram);
  net.set_capacity(noc_, noc);
  net.set_capacity(c2c_, c2c);
}

void SpatialMachine::part_done() {
  if (--pending_ == 0) op_done_.notify(sc_core::SC_ZERO_TIME);
}

void SpatialMachine::start_transfer(double bytes, ResourceId resource, double cap) {
  if (bytes <= 0) return;
  ++pending_;
  flows_.start(FlowSpec{bytes, cap, {{resource, 1.0}}}, [this]() { part_done(); });
}

WorkRecord SpatialMachine::run_op(const SpatialWork& w, double step_start) {
  double start = sim_now();
  TrafficWindow traffic(flows_.network(), levels_, start);
  wait(to_sc_time(w.overhead + w.noc_latency + w.c2c_latency));
  flows_.network().advance_to(sim_now());
  pending_ = 1;
  timers_.after(w.compute_seconds, [this]() { part_done(); });
  start_transfer(w.sram_bytes, levels_[0], w.sram_rate);
  if (chip_.has_dram()) start_transfer(w.dram_bytes, levels_[1], w.dram_rate);
  start_transfer(w.noc_bytes, noc_, w.noc_rate);
  start_transfer(w.c2c_bytes, c2c_, w.c2c_rate);
  wait(op_done_);
  double end = sim_now();
  return record(w, start - step_start, end - step_start, traffic.since(flows_.network(), end));
}

// Breakdown: the overhead, the latencies (communication), then the arithmetic; memory = the time the
// transfers outlasted it. The roofline is main memory's (as DeviceInfo's): DRAM on a chip with DRAM (the
// bytes that must cross it as placed: streamed weights, the KV cache), else the deployment's SRAM.
WorkRecord SpatialMachine::record(const SpatialWork& w, double start, double end,
                                  const std::vector<double>& traffic) const {
  WorkRecord r = record_head(w, start, end, schema_, traffic);
  bool dram = chip_.has_dram();
  r.min_bytes = dram ? w.dram_bytes : w.sram_bytes;
  r.peak_memory_bandwidth = dram ? chip_.chips * chip_.dram_bandwidth : chip_.chips * chip_.cores() * chip_.sram_bandwidth;
  double duration = end - start;
  r.breakdown.overhead = std::min(w.overhead, duration);
  r.breakdown.communication = std::min(w.noc_latency + w.c2c_latency, duration - r.breakdown.overhead);
  double rest = duration - r.breakdown.overhead - r.breakdown.communication;
  r.breakdown.compute = std::min(w.compute_seconds, rest);
  r.breakdown.memory = std::max(0.0, rest - r.breakdown.compute);
  double busy = duration - r.breakdown.overhead;
  r.details = {w.cores, w.chips, busy > 0 ? w.flops / busy / 1e9 : 0};
  double dram_traffic = traffic.size() > 1 ? traffic[1] : 0;
  r.energy_parts.push_back((chip_.chips * chip_.idle_watts + w.chips * chip_.active_watts) * duration);
  r.energy_parts.push_back(chip_.dram_joules_per_byte * dram_traffic);
  r.energy = r.energy_parts[0] + r.energy_parts[1];
  return r;
}

}  // namespace hwsim
