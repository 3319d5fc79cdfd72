#include "models/mcu/memory_plan.h"

#include <fmt/format.h>

#include "ops/footprint.h"
#include "sim/error.h"
#include "sim/units.h"

namespace hwsim {
namespace {

std::string bytes(double b) { return format_quantity(b, Dimension::bytes); }

Home weight_home(const McuPlacement& p, const McuChip& chip) {
  double sram_free = chip.sram.bytes - p.arena_peak;
  bool in_sram = p.weight_bytes <= sram_free, in_flash = p.weight_bytes <= chip.flash.bytes;
  switch (chip.weights) {
    case WeightPolicy::sram:
      if (in_sram) return Home::sram;
      break;
    case WeightPolicy::flash:
      if (in_flash) return Home::flash;
      break;
    case WeightPolicy::automatic:
      if (p.weight_bytes == 0 || in_sram) return Home::sram;
      if (in_flash) return Home::flash;
      if (chip.ext.present() && p.weight_bytes <= chip.ext.bytes) return Home::ext;
      break;
  }
  workload_error(fmt::format("the model does not fit {}: its weights need {}, the SRAM has {} free beside the {} "
                             "activation arena, the flash holds {}{} (mcu.weights = {})",
                             chip.name, bytes(p.weight_bytes), bytes(std::max(0.0, sram_free)), bytes(p.arena_peak),
                             bytes(chip.flash.bytes),
                             chip.ext.present() ? ", external memory " + bytes(chip.ext.bytes) : std::string(),
                             chip.weights == WeightPolicy::sram ? "sram" : chip.weights == WeightPolicy::flash ? "flash"
                                                                                                          : "auto"));
}

}  // namespace

std::string_view home_name(Home h) {
  switch (h) {
    case Home::sram: return "sram";
    case Home::flash: return "flash";
    case Home::ext: return "ext";
  }
  return "?";
}

McuPlacement place_step(const StepProgram& step, const McuChip& chip) {
  ArenaPlan arena = plan_arena(*step.graph, step.order);
  McuPlacement p;
  p.weight_bytes = arena.weight_bytes;
  p.arena_peak = arena.peak;
  p.live = arena.live;
  if (!step.order.empty()) p.peak_op = (*step.graph)[step.order[arena.peak_at]].name;
  if (p.arena_peak > chip.sram.bytes)
    workload_error(fmt::format("the model does not fit {}: its activation arena needs {} at its peak (op {}), the "
                               "SRAM holds {}", chip.name, bytes(p.arena_peak), p.peak_op, bytes(chip.sram.bytes)));
  p.weights = weight_home(p, chip);
  return p;
}

}  // namespace hwsim
