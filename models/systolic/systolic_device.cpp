// The "systolic" device: a Google-TPU-style chip of TensorCores (MXU systolic arrays, a vector
// unit, VMEM) sharing HBM. A step's ops (after the XLA fusion pass) are lowered one by one
// (op_lowering) and run back to back on a SystolicMachine; one WorkRecord per fused op.
// VMEM contents do not carry over between ops: every op loads its inputs from HBM and stores its
// outputs there, as XLA does between fusions (tensor ids are not used). With
// systolic.host_dispatch > 0 each call first pays the host's dispatch of the jitted program, as a
// record of its own ("host dispatch", class dispatch): device time and dispatch stay apart.
#include "models/systolic/op_lowering.h"
#include "models/systolic/op_record.h"
#include "models/systolic/systolic_chip.h"
#include "models/systolic/systolic_machine.h"
#include "sim/config/config.h"
#include "ops/device.h"
#include "sim/registry.h"
#include "sim/units.h"

namespace hwsim {
namespace {

DeviceInfo describe(const SystolicChip& chip) {
  double cores = chip.tensorcores;  // VMEM is per TensorCore
  DeviceInfo d{.kind = "systolic", .name = chip.name, .level = "tile", .framework = "xla", .unit = "fused op",
               .summary_detail = "mxu_utilisation", .compute_unit = "TensorCores",
               .memory = {{"vmem", chip.vmem_bytes * cores, chip.vmem_bandwidth * cores, 0, false},
                          {"hbm", chip.hbm_bytes, chip.hbm_bandwidth, chip.hbm_latency, false}},
               .tdp = chip.tdp_watts, .idle_power = chip.idle_watts, .max_clock = 0,
               .peak_clock = format_quantity(chip.clock_hz, Dimension::frequency) + ", systolic.clock",
               .schema = systolic_schema()};
  for (std::size_t t = 0; t < kDTypeCount; ++t) d.peak_flop_rate[t] = chip.peak_flop_rate(DType(t));
  return d;
}

class SystolicDevice : public Device {
 public:
  explicit SystolicDevice(const Config& config)
      : chip_(SystolicChip::from_config(config)), info_(describe(chip_)), machine_("systolic", chip_),
        lowering_(chip_) {}

  const DeviceInfo& info() const override { return info_; }

  std::vector<WorkRecord> run_step(const StepProgram& step) override {
    std::vector<WorkRecord> records;
    double step_start = sim_now();
    if (chip_.host_dispatch > 0) {  // the host's call, before the device starts the program
      sc_core::wait(to_sc_time(chip_.host_dispatch));
      records.push_back(dispatch_record(0, chip_.host_dispatch, chip_));
    }
    for (OpVertex v : step.order) records.push_back(machine_.run_op(lowering_.lower((*step.graph)[v]), step_start));
    return records;
  }

 private:
  SystolicChip chip_;
  DeviceInfo info_;
  SystolicMachine machine_;
  OpLowering lowering_;
};

}  // namespace

HWSIM_REGISTER(Device, SystolicDevice, "systolic",
               "Google-TPU-style chip: TensorCores of MXU systolic arrays, a vector unit and VMEM, sharing HBM");

}  // namespace hwsim
