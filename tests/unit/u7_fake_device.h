#pragma once
// A test-only device kind, "fake", registered in the unit-test binary: the generic core (config
// scoping, runner, results) must work for a device it has never heard of. Its one component,
// [fake], has one key: fake.sram (its only memory level, also its main memory). Each op takes
// 1 µs and reports one record: the op's FLOPs and minimum bytes as its SRAM traffic, and a detail
// "widgets" (1 per record, summed over a run).
#include "sim/config/config.h"
#include "sim/config/param.h"
#include "ops/device.h"
#include "sim/engine/systemc.h"
#include "sim/registry.h"

namespace hwsim::test {

inline const ParamRegistration fake_params({"fake"}, {
    quantity_param("fake.sram", Dimension::bytes, "the fake chip's only memory"),
});

class FakeDevice : public Device {
 public:
  explicit FakeDevice(const Config& config) {
    info_.kind = "fake";
    info_.name = config.text("name");
    info_.level = "fake";
    info_.framework = "fused";
    info_.unit = "step op";
    info_.summary_detail = "widgets";
    info_.memory = {{"sram", config.number("fake.sram"), 1e9, 1e-6, false}};
    info_.peak_flop_rate[std::size_t(DType::bf16)] = 1e12;
    info_.schema = std::make_shared<const RecordSchema>(RecordSchema{{"sram"}, {{"widgets", Rollup::sum}}});
  }
  const DeviceInfo& info() const override { return info_; }
  std::vector<WorkRecord> run_step(const StepProgram& step) override {
    std::vector<WorkRecord> out;
    double start = sim_now();
    for (OpVertex v : step.order) {
      const Op& op = (*step.graph)[v];
      WorkRecord r;
      r.name = op.name;
      r.op_class = op.op_class;
      r.start = sim_now() - start;
      sc_core::wait(to_sc_time(1e-6));
      r.end = sim_now() - start;
      r.flops = op_flops(op);
      r.min_bytes = op_min_bytes(op);
      r.schema = info_.schema;
      r.traffic = {r.min_bytes};
      r.peak_flop_rate = 1e12;
      r.peak_memory_bandwidth = 1e9;
      r.breakdown.compute = 1e-6;
      r.details = {1};
      out.push_back(r);
    }
    return out;
  }

 private:
  DeviceInfo info_;
};

inline const bool fake_registered = Registry<Device>::add(
    "fake", "test-only device", [](const Config& c) -> std::unique_ptr<Device> { return std::make_unique<FakeDevice>(c); });

}  // namespace hwsim::test
