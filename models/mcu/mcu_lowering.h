#pragma once
// One op of a step → the work the microcontroller runs (pure, deterministic): the NPU when there is
// one and it supports the op (Vela's operator constraints and cycle model), else the CPU (CMSIS-NN
// on the core's SIMD), with the reason it fell back. Bytes: weights from where the memory plan put
// them, activations in the SRAM arena.
#include <string>

#include "models/mcu/mcu_chip.h"
#include "ops/op.h"

namespace hwsim {

enum class Engine { npu, cpu };
// Where an op's weights are read from (index of the memory level: sram, flash, ext).
enum class Home { sram = 0, flash = 1, ext = 2 };

struct McuWork {
  std::string name, op_class, dtype, config;
  Engine engine = Engine::cpu;
  std::string fallback;        // why an existing NPU did not take the op (empty: it did, or no NPU)
  double macs = 0, flops = 0, min_bytes = 0;
  double cycles = 0;           // engine cycles of the arithmetic
  double stall_cycles = 0;     // core cycles stalled on flash misses (CPU ops, weights in flash)
  double clock_hz = 0;         // of the engine
  double overhead = 0;         // seconds per op (interpreter / command stream)
  double weight_bytes = 0;     // the op's constant operands
  double weight_traffic = 0;   // bytes read from their home (re-reads included)
  Home weights_home = Home::sram;
  double activation_bytes = 0; // read and written in the SRAM arena
  double peak_flop_rate = 0;   // of the engine for the math dtype
  double dma_rate = 0;         // cap of each transfer (NPU: its AXI port; CPU: none)
  double compute_seconds() const { return clock_hz > 0 ? cycles / clock_hz : 0; }
  double stall_seconds() const { return clock_hz > 0 ? stall_cycles / clock_hz : 0; }
};

// Throws UserError(workload) for a dtype the chip lacks (fp8 on a Cortex-M), an op kind the MCU does
// not run (attention), or a conv check_conv refuses.
McuWork lower_mcu_op(const Op& op, const McuChip& chip, Home weights_home);

}  // namespace hwsim
