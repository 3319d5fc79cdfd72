// The "cpu" device: a CPU socket (or an SoC's CPU cluster) running a framework's thread pool:
// SIMD cores with an optional matrix unit (AMX, SME), L1/L2 per core, a shared L3, DRAM channels.
// Each op of a step is lowered as CPU frameworks run it (cpu_lowering, cpu_gemm) and run on the
// CpuMachine one after another; one WorkRecord per op. The capacity check is the runner's: the
// workload against DRAM, the device's main memory.
#include <algorithm>

#include "models/cpu/cpu_chip.h"
#include "models/cpu/cpu_lowering.h"
#include "models/cpu/cpu_machine.h"
#include "ops/device.h"
#include "sim/config/config.h"
#include "sim/registry.h"
#include "sim/units.h"

namespace hwsim {
namespace {

DeviceInfo describe(const CpuChip& chip) {
  DeviceInfo d{.kind = "cpu", .name = chip.name, .level = "op", .framework = "fused", .unit = "op",
               .summary_detail = "gflops", .compute_unit = "cores",
               .memory = {{"l3", chip.l3_bytes, chip.l3_bandwidth, chip.l3_latency, true},
                          {"dram", chip.dram_bytes, chip.dram_bandwidth, chip.dram_latency, false}},
               .tdp = chip.tdp_watts, .idle_power = chip.idle_watts, .max_clock = 0,
               .peak_clock = format_quantity(chip.clock_hz, Dimension::frequency) + ", cpu.clock",
               .schema = cpu_schema()};
  // Per dtype the faster engine; a dtype the SIMD unit lacks runs converted to fp32.
  for (std::size_t t = 0; t < kDTypeCount; ++t) {
    double rate = std::max(chip.simd_peak_flop_rate(DType(t)), chip.matrix_peak_flop_rate(DType(t)));
    d.peak_flop_rate[t] = rate > 0 ? rate : chip.simd_peak_flop_rate(DType::fp32);
  }
  for (DType q : {DType::int4, DType::int8})  // llama.cpp's block scales, as the GEMM reads them
    d.weight_scale_bytes[std::size_t(q)] = chip.weight_bytes_per_element(q, DType::bf16) - bytes_per_element(q);
  return d;
}

class CpuDevice : public Device {
 public:
  explicit CpuDevice(const Config& config)
      : chip_(CpuChip::from_config(config)), info_(describe(chip_)), machine_("cpu", chip_) {}

  const DeviceInfo& info() const override { return info_; }

  std::vector<WorkRecord> run_step(const StepProgram& step) override {
    std::vector<WorkRecord> records;
    double step_start = sim_now();
    for (OpVertex v : step.order) records.push_back(machine_.run_op(lower_cpu_op((*step.graph)[v], chip_), step_start));
    return records;
  }

 private:
  CpuChip chip_;
  DeviceInfo info_;
  CpuMachine machine_;
};

}  // namespace

HWSIM_REGISTER(Device, CpuDevice, "cpu",
               "CPU socket or SoC CPU cluster: SIMD cores (AVX2/AVX-512/NEON/SVE) with optional AMX/SME, L1/L2/L3, "
               "DRAM channels; llama.cpp/oneDNN-style lowering");

}  // namespace hwsim
