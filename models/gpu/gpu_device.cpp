// The "gpu" device: a GPU of SMs (AMD: CUs), L2 (AMD: one private slice per XCD), an optional
// memory-side cache (AMD Infinity Cache) and HBM. Its core model (gpu.core.model)
// decides how SMs execute work: "tile" (the default) runs workloads as kernels of CTA tiles on a
// TileMachine; "warp" runs kernel programs lane by lane (hwsim --kernel, app/cli/kernel_command)
// and takes no op-graph workload.
#include <fmt/format.h>
#include <variant>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/tile/lowered_ops.h"
#include "models/gpu/tile/quant_gemm_lowering.h"
#include "models/gpu/tile/tile_machine.h"
#include "models/gpu/tile/tile_step_lowering.h"
#include "sim/config/config.h"
#include "ops/device.h"
#include "ops/step_replay.h"
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
               .tdp = chip.power.limit, .idle_power = chip.power.idle, .max_clock = chip.clock_hz,
               .peak_clock = format_quantity(chip.clock_hz, Dimension::frequency) + ", gpu.sm.clock",
               .schema = TileMachine::schema(chip)};
  const GpuMemoryLayout& m = chip.layout;
  if (m.has_mall()) d.memory.insert(d.memory.begin() + 1, {"mall", m.mall_bytes, m.mall_bandwidth, m.mall_latency, true});
  for (std::size_t t = 0; t < kDTypeCount; ++t) {
    d.peak_flop_rate[t] = chip.peak_flop_rate(DType(t));
    d.weight_scale_bytes[t] = quant_scale_bytes_per_weight(DType(t));
  }
  return d;
}

GpuChip tile_chip(const Config& config) {
  GpuChip chip = GpuChip::from_config(config);
  if (chip.core_model == "warp")
    workload_error("gpu.core.model=warp runs kernel programs: use --kernel FILE.hwk --grid N --block N "
                   "(see workloads/kernels/README.md); op-graph workloads need gpu.core.model=tile");
  return chip;
}

// What a step did to the state a GPU carries into the next: its caches before and after, and what
// its clock governor observed and set. A step that finds the caches as they were before runs
// exactly as recorded from any governor state that sets the same clocks on the same spans.
struct GpuStepEffect : StepEffect {
  PartitionedCaches::State before, after;
  GpuClockDomain::Recording clock;
  std::size_t bytes() const override {
    return sizeof(GpuStepEffect) + before.bytes() + after.bytes() +
           clock.observed.size() * sizeof(GpuClockDomain::Observation) + clock.spans.size() * sizeof(GpuClockDomain::Counters);
  }
};

class GpuDevice : public Device, public StepReplay {
 public:
  explicit GpuDevice(const Config& config)
      : chip_(tile_chip(config)), info_(describe(chip_)), machine_("gpu", chip_) {}

  const DeviceInfo& info() const override { return info_; }

  // Each op is lowered just before its kernels run (or its kernels of an earlier step reused), so
  // few CTAs are held at a time.
  std::vector<WorkRecord> run_step(const StepProgram& step) override {
    std::shared_ptr<GpuStepEffect> effect;
    last_effect_ = nullptr;
    if (recording_) {
      effect = std::make_shared<GpuStepEffect>();
      effect->before = machine_.cache_state();
      machine_.clock_domain().record(&effect->clock);
    }
    std::vector<WorkRecord> records;
    try {
      run_ops(step, records);
    } catch (...) {
      if (effect) machine_.clock_domain().record(nullptr);
      throw;
    }
    if (effect) {
      machine_.clock_domain().stop_recording();
      effect->after = machine_.cache_state();
      last_effect_ = std::move(effect);
    }
    return records;
  }

  void record_step_effects(bool on) override { recording_ = on; }
  std::shared_ptr<const StepEffect> last_step_effect() override { return last_effect_; }
  bool replay_step(const StepEffect& e, double seconds) override {
    const auto* g = dynamic_cast<const GpuStepEffect*>(&e);
    if (!g || machine_.cache_state() != g->before || !machine_.clock_domain().replay(g->clock)) return false;
    sc_core::wait(to_sc_time(seconds));
    machine_.set_cache_state(g->after);
    machine_.clock_domain().replayed(g->clock);
    return true;
  }

 private:
  GpuChip chip_;
  DeviceInfo info_;
  TileMachine machine_;
  LoweredOps lowered_;
  bool recording_ = false;
  std::shared_ptr<const StepEffect> last_effect_;

  // Each kernel is lowered only when it is not replayed (LoweredOps keeps its summary).
  void run_ops(const StepProgram& step, std::vector<WorkRecord>& records) {
    double start = sim_now();
    for (std::size_t i = 0; i < step.order.size(); ++i) {
      const std::vector<KernelSummary>& summaries = lowered_.summaries(step, i, chip_);
      bool last_op = i + 1 == step.order.size();
      for (std::size_t k = 0; k < summaries.size(); ++k) {
        auto lowered = [&, i, k]() -> const PackedKernel& { return lowered_.kernels(step, i, chip_)[k]; };
        records.push_back(machine_.run_kernel(summaries[k], lowered, start, last_op && k + 1 == summaries.size()));
      }
    }
  }
};

}  // namespace

HWSIM_REGISTER(Device, GpuDevice, "gpu",
               "GPU (NVIDIA SMs or AMD CUs): compute units, L2 (one, or private per partition/XCD), an optional "
               "memory-side cache and HBM as shared bandwidth servers; gpu.core.model = tile (workloads as "
               "CTA tiles in waves) or warp (kernel programs, SIMT lane by lane)");

}  // namespace hwsim
