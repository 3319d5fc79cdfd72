// The "spatial" device: a deployment of `spatial.chips` chips built as grids of cores with local
// SRAM, a network-on-chip, optional DRAM and chip-to-chip links (Groq LPU, Tenstorrent Wormhole and
// Blackhole, Cerebras WSE-3). Each step is placed as a compiler would place it (spatial_placement:
// weights resident in SRAM where they fit, streamed from DRAM where not, the layers pipelined or
// split over the chips), each op lowered on its placement (spatial_lowering) and run on the
// SpatialMachine one after another; one WorkRecord per op. The capacity check is the runner's, against
// the deployment's main memory (DRAM where the chips have it, else their SRAM); a model that does not
// fit is told how many chips would hold it (the DeviceParts capability).

#include "models/spatial/spatial_chip.h"
#include "models/spatial/spatial_lowering.h"
#include "models/spatial/spatial_machine.h"
#include "models/spatial/spatial_placement.h"
#include "ops/device.h"
#include "ops/device_parts.h"
#include "sim/config/config.h"
#include "sim/registry.h"
#include "sim/units.h"

namespace hwsim {
namespace {

DeviceInfo describe(const SpatialChip& chip) {
  double cores = chip.chips * chip.cores();
  DeviceInfo d{.kind = "spatial", .name = chip.name, .level = "op", .framework = "fused", .unit = "op",
               .summary_detail = "gflops", .compute_unit = "cores",
               .memory = {{"sram", chip.chips * chip.sram_bytes(), cores * chip.sram_bandwidth, 0, false}},
               .tdp = chip.chips * chip.tdp_watts, .idle_power = chip.chips * chip.idle_watts, .max_clock = 0,
               .peak_clock = format_quantity(chip.clock_hz, Dimension::frequency) + ", spatial.clock",
               .schema = spatial_schema(chip.has_dram())};
  if (chip.has_dram())
    d.memory.push_back({"dram", chip.chips * chip.dram_bytes, chip.chips * chip.dram_bandwidth, chip.dram_latency, false});
  for (std::size_t t = 0; t < kDTypeCount; ++t)  // a dtype the engines lack runs at the math dtype's rate
    d.peak_flop_rate[t] = cores * chip.core_matrix_rate(chip.math_dtype(DType(t), DType(t)));
  return d;
}

class SpatialDevice : public Device, public DeviceParts {
 public:
  explicit SpatialDevice(const Config& config)
      : chip_(SpatialChip::from_config(config)), info_(describe(chip_)), machine_("spatial", chip_) {}

  const DeviceInfo& info() const override { return info_; }

  std::vector<WorkRecord> run_step(const StepProgram& step) override {
    StepPlacement placement = place_step(*step.graph, step.order, chip_);
    std::vector<WorkRecord> records;
    double step_start = sim_now(), last_chip = 0;
    for (std::size_t i = 0; i < step.order.size(); ++i) {
      const OpPlacement& p = placement.ops[i];
      records.push_back(machine_.run_op(lower_spatial_op((*step.graph)[step.order[i]], p, last_chip, chip_), step_start));
      last_chip = p.first_chip + p.chips - 1;
    }
    return records;
  }

  std::string parts_advice(double bytes) const override { return chips_advice(bytes, chip_); }

  // With spatial.fit_chips, the deployment grows to the chips that hold `bytes`, before it runs.
  bool fit_parts(double bytes) override {
    double count = chips_to_hold(bytes, chip_);
    if (!chip_.fit_chips || count <= chip_.chips || count > SpatialChip::kMaxChips) return false;
    chip_.chips = count;
    info_ = describe(chip_);
    machine_.set_chips(count);
    return true;
  }

 private:
  SpatialChip chip_;
  DeviceInfo info_;
  SpatialMachine machine_;
};

}  // namespace

HWSIM_REGISTER(Device, SpatialDevice, "spatial",
               "grid of cores with local SRAM, a network-on-chip, optional DRAM, chips in a pipeline or tensor-parallel "
               "(Groq LPU, Tenstorrent Wormhole/Blackhole, Cerebras WSE-3); compiler-style static placement");

}  // namespace hwsim
