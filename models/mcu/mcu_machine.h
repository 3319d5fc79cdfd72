#pragma once
// The microcontroller as SystemC modules: run_op(), called from the runner's SystemC thread, runs
// one op now. Its arithmetic (a timer of the engine's cycles, plus a CPU's stalls on misses to
// flash-resident weights) and its transfers (flows on the
// shared flow engine: activations over the SRAM, weights over the memory that holds them, an NPU's
// capped at its AXI port) start together after the op's fixed overhead and overlap; the op ends when
// the last of them does (an NPU's DMA double-buffers under its MAC array; a CPU's loads stall it
// only where the memory is slower than its arithmetic). Ops run one after another (CMSIS-NN and the
// NPU driver are serial). Nothing ticks.
#include <memory>
#include <vector>

#include "models/mcu/mcu_chip.h"
#include "models/mcu/mcu_lowering.h"
#include "sim/engine/flow_host.h"
#include "sim/engine/timer_queue.h"
#include "sim/result.h"

namespace hwsim {

// What an MCU record holds: traffic at sram, flash (and ext when present); details
//   engine          (per record) 0 = NPU, 1 = CPU
//   macs            (sum)        multiply-adds
//   cycles          (sum)        the op's time in cycles of its engine's clock
//   macs_per_cycle  (per record) macs / cycles
//   fallback        (sum)        1 when an existing NPU could not run the op (record.config says why)
//   arena_bytes     (per record) activation bytes live in SRAM during the op
//   weight_bytes    (sum)        the op's constant operands (weights, scales, biases)
//   weights_home    (per record) where they are read from: 0 sram, 1 flash, 2 ext
std::shared_ptr<const RecordSchema> mcu_schema(bool with_ext);

class McuMachine : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(McuMachine);
  McuMachine(sc_core::sc_module_name name, const McuChip& chip);

  // Runs one op now (call from an SC_THREAD: it waits); times relative to `step_start`.
  WorkRecord run_op(const McuWork& work, double arena_bytes, double step_start);
  // The NPU driver's start of an inference (CPU time, no arithmetic).
  WorkRecord run_invoke(double step_start);

 private:
  void part_done();
  void start_transfer(double bytes, Home home, double cap);
  WorkRecord record(const McuWork& w, double start, double end, const std::vector<double>& traffic,
                    double arena_bytes) const;

  const McuChip chip_;
  std::shared_ptr<const RecordSchema> schema_;
  TimerQueue timers_;
  FlowHost flows_;
  std::vector<ResourceId> levels_;  // sram, flash, ext (when present)
  int pending_ = 0;
  sc_core::sc_event op_done_;
};

}  // namespace hwsim
