#pragma once
// The device interface: one chip of any kind (GPU, systolic-array TPU, ...), as the simulation
// layer's runners (run/) drive it. Implementations live in models/<kind>/, register by their kind
// name (HWSIM_REGISTER(Device, Impl, "gpu", ...)), and are chosen by the chip file's `kind`.
//
// Contract:
// - Built from its scoped parameters (a Config validated for its kind); it never reads the config
//   afterwards. Construction happens during SystemC elaboration: a device may own sc_modules.
// - info() says what it offers: peak FLOP rate per dtype, memory levels near → far, its default
//   frontend pass, what one record is.
// - run_step() is called inside the runner's SystemC thread, once per workload step in order; it
//   lowers the step's ops its own way and simulates them, waiting on SystemC time, and returns one
//   WorkRecord per unit of work with start/end in seconds from the step's start. State that a real
//   chip keeps between steps (cache contents) carries over.
#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "ops/dtype.h"
#include "ops/op_graph.h"
#include "ops/tensor_ids.h"
#include "sim/result.h"

namespace hwsim {

class Config;

// One level of the memory hierarchy.
struct MemoryLevel {
  std::string name;        // "l2", "hbm", "vmem"
  double bytes = 0;        // capacity
  double bandwidth = 0;    // bytes/s, datasheet
  double latency = 0;      // seconds
  bool cached = false;     // holds copies of a farther level (residency tracked) rather than being
                           // a scratchpad or the backing store
};

struct DeviceInfo {
  std::string kind;                 // "gpu", "systolic"
  std::string name;                 // the chip's name
  std::string level;                // fidelity level of its results ("tile")
  std::string framework;            // default frontend pass (workloads/passes): "pytorch_eager", "xla"
  std::string unit;                 // what one record is: "kernel", "fused op"
  std::string summary_detail;       // the record detail a text table shows ("waves")
  std::string compute_unit = "compute units";  // what the breakdown averages over ("SMs")
  std::vector<MemoryLevel> memory;  // near → far; the last is main memory
  std::array<double, kDTypeCount> peak_flop_rate{};  // dense FLOP/s per dtype; 0 = unsupported
  double tdp = 0;                   // watts: the board power limit (power.tdp)
  double idle_power = 0;            // watts: board power with nothing running (power.idle; 0: not
                                    // modelled), charged over a run's time no record covers
  double max_clock = 0;             // Hz: the clock a clock governor lowers under the limit; 0 = none
  std::string peak_clock;           // the clock peak_flop_rate assumes, for the report ("1.98 GHz, gpu.sm.clock")
  // Names of every record's numbers: `memory` names near → far, and the device's details.
  std::shared_ptr<const RecordSchema> schema;
  // The device holds every tensor in a static plan (a microcontroller: activations in an SRAM
  // arena, weights in SRAM or flash) and refuses a step that does not fit it; the runner skips its
  // per-op check against main memory and derives inference metrics (RunResult::inference).
  bool static_memory_plan = false;
  // Bytes of quantisation metadata (block scales, zero points) the device's kernels keep beside
  // each weight stored in a weight-only dtype (narrower than the activations), per dtype: llama.cpp's
  // Q4_0 on a CPU, 2 B per 32 weights; torchao's int4 on a GPU, 4 B per 128. 0: none counted. The
  // capacity check adds them to the weights (LlmFacts::quantised_weights).
  std::array<double, kDTypeCount> weight_scale_bytes{};

  const MemoryLevel& main_memory() const { return memory.back(); }
  // Bytes/s of the fastest level (every byte a record moves crosses one): its floor's last resort.
  double fastest_level() const {
    double b = 0;
    for (const auto& m : memory) b = std::max(b, m.bandwidth);
    return b;
  }
};

// One step as the device receives it, after the frontend pass: the op graph, the order to run it
// in (every op after its inputs), and each vertex's tensor identities.
struct StepProgram {
  const OpGraph* graph = nullptr;
  std::vector<OpVertex> order;
  std::vector<TensorIds> tensors;  // indexed by vertex
};

class Device {
 public:
  static constexpr const char* kind_name = "device";
  virtual ~Device() = default;

  virtual const DeviceInfo& info() const = 0;

  // Lowers and runs one step now (inside the runner's SystemC thread; may wait). Throws
  // UserError(workload) for an op the device cannot run (a dtype it lacks, a shape too large).
  virtual std::vector<WorkRecord> run_step(const StepProgram& step) = 0;

};

// Builds the device a chip config's `kind` names (Registry<Device>), in the current SystemC module
// scope (a caller that builds several gives each its own module). The one place a device is built.
std::unique_ptr<Device> make_device(const Config& chip);

// The device kinds a chip file may name: those registered, sorted.
std::vector<std::string> device_kinds();

// A chip file loaded for the registered device kinds (load_config with device_kinds()).
Config load_chip(const std::string& chip, const std::vector<std::string>& overrides);

}  // namespace hwsim
