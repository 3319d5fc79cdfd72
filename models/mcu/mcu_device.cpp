// The "mcu" device: an Arm Cortex-M microcontroller with an optional Ethos-U NPU. Per step: the
// memory plan places the activation arena in SRAM and the weights in SRAM, flash or external memory
// (refusing a model that does not fit); each op is lowered to the NPU or, where the NPU cannot run
// it, the CPU (mcu_lowering) and run on the McuMachine, one after another; one WorkRecord per op.
// The NPU's driver start costs once per step that uses the NPU.
#include <algorithm>

#include "models/mcu/mcu_chip.h"
#include "models/mcu/mcu_lowering.h"
#include "models/mcu/mcu_machine.h"
#include "models/mcu/memory_plan.h"
#include "sim/config/config.h"
#include "ops/device.h"
#include "sim/registry.h"

namespace hwsim {
namespace {

DeviceInfo describe(const McuChip& chip) {
  DeviceInfo d{.kind = "mcu", .name = chip.name, .level = "op", .framework = "fused", .unit = "op",
               .summary_detail = "macs_per_cycle", .compute_unit = "engines (CPU or NPU)",
               .memory = {{"sram", chip.sram.bytes, chip.sram.bandwidth, chip.sram.latency, false},
                          {"flash", chip.flash.bytes, chip.flash.bandwidth, chip.flash.latency, false}},
               .tdp = 0, .idle_power = 0, .max_clock = 0, .peak_clock = {}, .schema = mcu_schema(chip.ext.present())};
  if (chip.ext.present()) d.memory.push_back({"ext", chip.ext.bytes, chip.ext.bandwidth, chip.ext.latency, false});
  for (std::size_t t = 0; t < kDTypeCount; ++t) d.peak_flop_rate[t] = chip.cpu_peak_flop_rate(DType(t));
  if (chip.npu.present())
    d.peak_flop_rate[std::size_t(DType::int8)] = std::max(d.peak_flop_rate[std::size_t(DType::int8)],
                                                          chip.npu_peak_flop_rate());
  d.static_memory_plan = true;
  return d;
}

class McuDevice : public Device {
 public:
  explicit McuDevice(const Config& config)
      : chip_(McuChip::from_config(config)), info_(describe(chip_)), machine_("mcu", chip_) {}

  const DeviceInfo& info() const override { return info_; }

  std::vector<WorkRecord> run_step(const StepProgram& step) override {
    McuPlacement place = place_step(step, chip_);
    std::vector<McuWork> work;
    for (OpVertex v : step.order) work.push_back(lower_mcu_op((*step.graph)[v], chip_, place.weights));
    std::vector<WorkRecord> records;
    double step_start = sim_now();
    bool npu_used = std::any_of(work.begin(), work.end(), [](const McuWork& w) { return w.engine == Engine::npu; });
    if (npu_used) records.push_back(machine_.run_invoke(step_start));
    for (std::size_t i = 0; i < work.size(); ++i) records.push_back(machine_.run_op(work[i], place.live[i], step_start));
    return records;
  }

 private:
  McuChip chip_;
  DeviceInfo info_;
  McuMachine machine_;
};

}  // namespace

HWSIM_REGISTER(Device, McuDevice, "mcu",
               "Arm Cortex-M microcontroller (M4/M7/M55/M85, CMSIS-NN) with SRAM, flash and an optional Ethos-U NPU");

}  // namespace hwsim
