#pragma once
// Where a step's bytes live on the microcontroller (pure): the activation arena (ops/footprint.h)
// in SRAM, the weights in SRAM when they fit beside it (mcu.weights = auto), else in flash (read,
// "streamed", by every op that uses them), else in external memory. A step that fits nowhere is
// refused with one line.
#include <string>
#include <vector>

#include "models/mcu/mcu_chip.h"
#include "models/mcu/mcu_lowering.h"
#include "ops/device.h"

namespace hwsim {

struct McuPlacement {
  Home weights = Home::sram;
  double weight_bytes = 0;
  double arena_peak = 0;
  std::string peak_op;          // the op at which the arena peaks
  std::vector<double> live;     // arena bytes live during each op, in execution order
};

// Throws UserError(workload): the arena does not fit SRAM, or the weights fit none of the memories
// the policy allows.
McuPlacement place_step(const StepProgram& step, const McuChip& chip);

std::string_view home_name(Home h);

}  // namespace hwsim
