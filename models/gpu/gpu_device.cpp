// The "gpu" device: a GPU of SMs (AMD: CUs), L2 (AMD: one private slice per XCD), an optional
// memory-side cache (AMD Infinity Cache) and HBM. Its core model (gpu.core.model)
// decides how SMs execute work: "tile" (the default) runs workloads as kernels of CTA tiles on a
// TileMachine; "warp" runs kernel programs lane by lane (hwsim --kernel, app/cli/kernel_command)
// and takes no op-graph workload.
#include <fmt/format.h>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/tile/tile_machine.h"
#include "models/gpu/tile/tile_step_lowering.h"
#include "sim/config/config.h"
#include "sim/device/device.h"
#include "sim/error.h"
#include "sim/registry.h"
#include "sim/units.h"

namespace hwsim {
namespace {

// Memory levels near → far: l2 (all partitions' slices together), the memory-side cache when the
// chip has one (mall), hbm. Words from the chip's vocabulary (SMs / CUs).
DeviceInfo describe(const GpuChip& chip) {
  DeviceInfo d{.kind = "gpu", .name = chip.name, .level = "tile", .framework = "eager", .unit = "kernel",
               .summary_detail = chip.vocabulary.detail_waves, .compute_unit = chip.vocabulary.compute_units,
               .memory = {{"l2", chip.l2_bytes, chip.l2_bandwidth, chip.l2_latency, true},
                          {"hbm", chip.hbm_bytes, chip.hbm_bandwidth, chip.hbm_latency, false}},
               .tdp = chip.tdp_watts, .schema = TileMachine::schema(chip)};
  const GpuMemoryLayout& m = chip.layout;
  if (m.has_mall()) d.memory.insert(d.memory.begin() + 1, {"mall", m.mall_bytes, m.mall_bandwidth, m.mall_latency, true});
  for (std::size_t t = 0; t < kDTypeCount; ++t) d.peak_flop_rate[t] = chip.peak_flop_rate(DType(t));
  d.peak_clock = format_quantity(chip.clock_hz, Dimension::frequency) + ", gpu.sm.clock";
  return d;
}

GpuChip tile_chip(const Config& config) {
  GpuChip chip = GpuChip::from_config(config);
  if (chip.core_model == "warp")
    workload_error("gpu.core.model=warp runs kernel programs: use --kernel FILE.hwk --grid N --block N "
                   "(see workloads/kernels/README.md); op-graph workloads need gpu.core.model=tile");
  return chip;
}

class GpuDevice : public Device {
 public:
  explicit GpuDevice(const Config& config)
      : chip_(tile_chip(config)), info_(describe(chip_)), machine_("gpu", chip_) {}

  const DeviceInfo& info() const override { return info_; }

  std::vector<WorkRecord> run_step(const StepProgram& step) override {
    std::vector<Kernel> kernels = lower_tile_step(step, chip_);
    if (!chip_.vocabulary.is_nvidia())  // lowerings describe themselves in NVIDIA's words
      for (Kernel& k : kernels) k.config = chip_.vocabulary.reword(k.config);
    return machine_.run_kernels(kernels);
  }

 private:
  GpuChip chip_;
  DeviceInfo info_;
  TileMachine machine_;
};

}  // namespace

HWSIM_REGISTER(Device, GpuDevice, "gpu",
               "GPU (NVIDIA SMs or AMD CUs): compute units, L2 (one, or private per partition/XCD), an optional "
               "memory-side cache and HBM as shared bandwidth servers; gpu.core.model = tile (workloads as "
               "CTA tiles in waves) or warp (kernel programs, SIMT lane by lane)");

}  // namespace hwsim
