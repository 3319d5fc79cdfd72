#pragma once
// Inference metrics of a run on a device with a static memory plan (a microcontroller), as plain
// structs (part of RunResult). Derived once by app/inference_metrics.cpp from the finalized records
// (one step = one inference) and the device's memories; printers only format.
#include <cstdint>
#include <string>
#include <vector>

namespace hwsim {

// An op an existing NPU could not run: it ran on the CPU.
struct InferenceFallback {
  std::string op, op_class, reason;  // reason: the lowering's words ("stride 4 > npu.max_stride 3")
  double seconds = 0;                // its time on the CPU, per inference
};

// Time and MACs per engine over one inference.
struct InferenceEngineTime {
  double seconds = 0, macs = 0;
  std::int64_t ops = 0;
};

struct InferenceMetrics {
  bool present = false;
  std::int64_t inferences = 0;       // steps
  double latency = 0;                // seconds per inference (mean over steps)
  double inferences_per_second = 0;
  double macs = 0;                   // per inference
  double macs_per_cycle = 0;         // achieved: MACs / (each op's time x its engine's clock)
  double energy = 0;                 // joules per inference
  // Where the bytes live (per inference)
  double weight_bytes = 0;           // weights, scales and biases
  double weights_in_sram = 0, weights_in_flash = 0, weights_in_ext = 0;
  double arena_peak = 0;             // activation bytes live at the peak, in SRAM
  double sram_bytes = 0, flash_bytes = 0, ext_bytes = 0;  // capacities
  double flash_traffic = 0;          // bytes read from flash per inference (weights streamed)
  InferenceEngineTime npu, cpu;      // cpu includes the NPU driver's start
  std::vector<InferenceFallback> fallbacks;
};

}  // namespace hwsim
