#pragma once
// A fused op as the systolic machine runs it: phases one after another (a GEMM is one phase;
// materialized attention is three: QKᵀ, softmax, P·V), each a double-buffered pipeline of
// identical steps per TensorCore: load the step's operands HBM → VMEM, compute on the MXUs and
// the vector unit, store the results VMEM → HBM. Step i+1's load and step i−1's store overlap
// step i's compute. Built by the lowering (pure, no SystemC), run by SystolicMachine.
#include <cstdint>
#include <string>
#include <vector>

#include "ops/dtype.h"

namespace hwsim {

// One pipeline step of one TensorCore.
struct PipelineStep {
  double load_bytes = 0;     // HBM → VMEM before the step computes
  double store_bytes = 0;    // VMEM → HBM after it (the ofmap's DRAM channel)
  double filter_share = 0;   // of load_bytes, the filter operand's; the rest is the ifmap's
                             // (per-operand DRAM channels, SystolicChip::hbm_seconds)
  double mxu_seconds = 0;    // busiest MXU, fill and drain included, efficiency applied
  double fill_seconds = 0;   // of mxu_seconds: pipeline fill, drain and unhidden preloads
  double vpu_seconds = 0;    // vector unit (epilogue, softmax, dequantisation, fused elementwise)
  double vmem_seconds = 0;   // VMEM port time of the step's operand and result traffic
  double vmem_bytes = 0;     // that traffic, plus the DMA bytes in and out
  // Seconds the step occupies the TensorCore: the MXUs, the vector unit and the VMEM port work
  // concurrently, so the slowest sets the pace; the per-step overhead comes on top.
  double busy(double step_overhead) const;
};

struct Phase {
  std::string name;                  // "gemm", "qk", "softmax", "pv", "vector", "attention"
  PipelineStep step;
  std::vector<std::int64_t> steps;   // per TensorCore
  // MXU fill and drain a TensorCore pays once in the phase, after its last step (overlapped
  // preload: the arrays' chain runs on from step to step; the steps carry only its steady part).
  double once_seconds = 0;
  // Accounting (the whole phase, all TensorCores)
  double mxu_macs = 0;               // useful multiply-adds
  double vector_ops = 0;
  std::int64_t folds = 0;
  double fold_efficiency = 0;        // mapping efficiency of those folds
  std::string config;                // how it was lowered, for the record
  std::int64_t total_steps() const;
};

struct OpPlan {
  std::string name, op_class, dtype;
  double flops = 0, min_bytes = 0;   // roofline numerators (op_flops / op_min_bytes)
  double peak_flop_rate = 0;         // of the chip for the math dtype
  double mxu_peak_flop_rate = 0;     // same, for MXU utilisation (0 for a pure vector pass)
  std::vector<Phase> phases;
  std::string config() const;        // phases' configs joined
};

}  // namespace hwsim
