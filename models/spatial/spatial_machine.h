#pragma once
// A spatial deployment as SystemC modules: run_op(), called from the runner's SystemC thread, runs
// one placed op now. After the op's fixed overhead and its latencies (NoC hops across its region,
// chip-to-chip hops), its arithmetic (a timer) and its transfers (flows on the shared flow engine:
// SRAM at its cores' bandwidth, DRAM at its chips', NoC and chip-to-chip bytes) start together and
// overlap; the op ends when the last of them does. Ops run one after another: a single request's
// token passes through the pipeline of chips op by op. Nothing ticks.
#include <array>
#include <memory>
#include <vector>

#include "models/spatial/spatial_chip.h"
#include "models/spatial/spatial_lowering.h"
#include "sim/engine/flow_host.h"
#include "sim/engine/timer_queue.h"
#include "sim/result.h"

namespace hwsim {

// What a spatial record holds: traffic at sram (and dram on a chip with DRAM); details
//   cores    (per record) cores the op is spread over, all its chips together
//   chips    (per record) chips it spans
//   gflops   (per record) achieved GFLOP/s
// energy parts: chips (idle of every chip, active of the op's), dram.
std::shared_ptr<const RecordSchema> spatial_schema(bool dram);

class SpatialMachine : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(SpatialMachine);
  SpatialMachine(sc_core::sc_module_name name, const SpatialChip& chip);

  // Runs one op now (call from an SC_THREAD: it waits); times relative to `step_start`.
  WorkRecord run_op(const SpatialWork& work, double step_start);

  // The deployment grown to `chips` chips (spatial.fit_chips), before any op runs: every shared
  // resource's capacity scales with them.
  void set_chips(double chips);

 private:
  // Bytes/s of sram, dram (0 without), noc and c2c for the deployment's chips.
  std::array<double, 4> capacities() const;

  void part_done();
  void start_transfer(double bytes, ResourceId resource, double cap);
  WorkRecord record(const SpatialWork& w, double start, double end, const std::vector<double>& traffic) const;

  SpatialChip chip_;
  std::shared_ptr<const RecordSchema> schema_;
  TimerQueue timers_;
  FlowHost flows_;
  std::vector<ResourceId> levels_;  // sram, then dram when the chip has it
  ResourceId noc_{}, c2c_{};
  int pending_ = 0;
  sc_core::sc_event op_done_;
};

}  // namespace hwsim
