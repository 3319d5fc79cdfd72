#pragma once
// The CPU as SystemC modules: run_op(), called from the runner's SystemC thread, runs one op now.
// After the op's fixed overhead (the thread pool's dispatch and barrier), its arithmetic (a timer:
// the engine's time at its efficiency) and its transfers (flows on the shared flow engine: bytes at
// L3, bytes from DRAM capped at what the op's threads can keep in flight) start together and
// overlap, as out-of-order cores and hardware prefetchers overlap them; the op ends when the last
// of them does. Ops run one after another (a framework's graph on one thread pool). Nothing ticks.
#include <memory>
#include <vector>

#include "models/cpu/cpu_chip.h"
#include "models/cpu/cpu_lowering.h"
#include "sim/engine/flow_host.h"
#include "sim/engine/timer_queue.h"
#include "sim/result.h"

namespace hwsim {

// What a CPU record holds: traffic at l3 and dram; details
//   engine   (per record) 0 = SIMD, 1 = matrix unit (AMX, SME)
//   threads  (per record) cores doing the arithmetic
//   gflops   (per record) achieved GFLOP/s
std::shared_ptr<const RecordSchema> cpu_schema();

class CpuMachine : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(CpuMachine);
  CpuMachine(sc_core::sc_module_name name, const CpuChip& chip);

  // Runs one op now (call from an SC_THREAD: it waits); times relative to `step_start`.
  WorkRecord run_op(const CpuWork& work, double step_start);

 private:
  void part_done();
  void start_transfer(double bytes, std::size_t level, double latency, double cap);
  WorkRecord record(const CpuWork& w, double start, double end, const std::vector<double>& traffic) const;

  const CpuChip chip_;
  std::shared_ptr<const RecordSchema> schema_;
  TimerQueue timers_;
  FlowHost flows_;
  std::vector<ResourceId> levels_;  // l3, dram
  int pending_ = 0;
  sc_core::sc_event op_done_;
};

}  // namespace hwsim
