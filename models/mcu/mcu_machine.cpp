#include "models/mcu/mcu_machine.h"

#include <limits>

#include "sim/engine/traffic_window.h"
#include "sim/record_head.h"

namespace hwsim {

std::shared_ptr<const RecordSchema> mcu_schema(bool with_ext) {
  std::vector<DetailKey> details = {{"engine", Rollup::none},       {"macs", Rollup::sum},
                                    {"cycles", Rollup::sum},        {"macs_per_cycle", Rollup::none},
                                    {"fallback", Rollup::sum},      {"arena_bytes", Rollup::none},
                                    {"weight_bytes", Rollup::sum},  {"weights_home", Rollup::none}};
  // Energy: the core (running, or asleep while the NPU works), the NPU's MACs, and the bytes the
  // NPU moves at each memory (a CPU op's memory traffic is inside the core's run power).
  static const auto without = std::make_shared<const RecordSchema>(
      RecordSchema{{"sram", "flash"}, details, {"core", "npu_macs", "sram", "flash"}});
  static const auto with = std::make_shared<const RecordSchema>(
      RecordSchema{{"sram", "flash", "ext"}, details, {"core", "npu_macs", "sram", "flash", "ext"}});
  return with_ext ? with : without;
}

McuMachine::McuMachine(sc_core::sc_module_name name, const McuChip& chip)
    : sc_core::sc_module(name), chip_(chip), schema_(mcu_schema(chip.ext.present())), timers_("timers"),
      flows_("flows") {
  levels_.push_back(flows_.network().add_resource("sram", chip_.sram.bandwidth));
  levels_.push_back(flows_.network().add_resource("flash", chip_.flash.bandwidth));
  if (chip_.ext.present()) levels_.push_back(flows_.network().add_resource("ext", chip_.ext.bandwidth));
}

void McuMachine::part_done() {
  if (--pending_ == 0) op_done_.notify(sc_core::SC_ZERO_TIME);
}

// One transfer: the memory's first-access latency, then a flow over it (capped by the NPU's port).
void McuMachine::start_transfer(double bytes, Home home, double cap) {
  if (bytes <= 0) return;
  const McuMemory& m = home == Home::sram ? chip_.sram : home == Home::flash ? chip_.flash : chip_.ext;
  ResourceId r = levels_[std::size_t(home)];
  ++pending_;
  timers_.after(m.latency, [this, bytes, r, cap]() {
    flows_.start(FlowSpec{bytes, cap > 0 ? cap : std::numeric_limits<double>::infinity(), {{r, 1.0}}},
                 [this]() { part_done(); });
  });
}

WorkRecord McuMachine::run_op(const McuWork& w, double arena_bytes, double step_start) {
  double start = sim_now();
  TrafficWindow traffic(flows_.network(), levels_, start);
  wait(to_sc_time(w.overhead));
  pending_ = 1;
  timers_.after(w.compute_seconds() + w.stall_seconds(), [this]() { part_done(); });
  double sram_bytes = w.activation_bytes + (w.weights_home == Home::sram ? w.weight_traffic : 0);
  start_transfer(sram_bytes, Home::sram, w.dma_rate);
  if (w.weights_home != Home::sram) start_transfer(w.weight_traffic, w.weights_home, w.dma_rate);
  wait(op_done_);
  double end = sim_now();
  return record(w, start - step_start, end - step_start, traffic.since(flows_.network(), end), arena_bytes);
}

WorkRecord McuMachine::run_invoke(double step_start) {
  McuWork w;
  w.name = "npu.invoke";
  w.op_class = "driver";
  w.dtype = "int8";
  w.config = "cpu: start the NPU, cache maintenance, completion interrupt";
  w.clock_hz = chip_.clock_hz;
  w.overhead = chip_.npu.invoke_overhead;
  double start = sim_now();
  wait(to_sc_time(w.overhead));
  return record(w, start - step_start, sim_now() - step_start, std::vector<double>(levels_.size(), 0.0), 0);
}

// Breakdown: the fixed overhead, then the arithmetic; memory = the time transfers outlasted it.
// Energy: a CPU op at the chip's run power; an NPU op at its sleep power (the core waits) plus the
// NPU's MACs and the bytes its DMA moves.
WorkRecord McuMachine::record(const McuWork& w, double start, double end, const std::vector<double>& traffic,
                              double arena_bytes) const {
  WorkRecord r = record_head(w, start, end, schema_, traffic);
  r.min_bytes = w.min_bytes;
  r.peak_memory_bandwidth = chip_.sram.bandwidth;  // the arena's memory: the roofline's
  double duration = end - start;
  r.breakdown.overhead = std::min(w.overhead, duration);
  r.breakdown.compute = std::min(w.compute_seconds(), duration - r.breakdown.overhead);
  r.breakdown.memory = std::max(0.0, duration - r.breakdown.overhead - r.breakdown.compute);
  double cycles = duration * w.clock_hz;
  bool npu = w.engine == Engine::npu;
  r.details = {npu ? 0.0 : 1.0, w.macs,         cycles,         cycles > 0 ? w.macs / cycles : 0,
               w.fallback.empty() ? 0.0 : 1.0, arena_bytes, w.weight_bytes, double(int(w.weights_home))};
  r.energy_parts.push_back((npu ? chip_.sleep_watts : chip_.run_watts) * duration);
  r.energy_parts.push_back(npu ? chip_.npu_joules_per_mac * w.macs : 0.0);
  for (std::size_t i = 0; i < traffic.size(); ++i) {
    const McuMemory& m = i == 0 ? chip_.sram : i == 1 ? chip_.flash : chip_.ext;
    r.energy_parts.push_back(npu ? m.joules_per_byte * traffic[i] : 0.0);
  }
  r.energy = 0;
  for (double part : r.energy_parts) r.energy += part;
  return r;
}

}  // namespace hwsim
