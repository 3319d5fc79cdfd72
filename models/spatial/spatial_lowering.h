#pragma once
// One placed op → the work a spatial deployment runs (pure, deterministic):
// - compute: a GEMM (and attention's two products) on the matrix engines of every core of the op's
//   chips (ops run one at a time, so the cores beside those holding its weights are free; the weights
//   reach them over the NoC), in the math dtype (SpatialChip::math_dtype), M padded up to the engine's
//   tile rows, at spatial.matrix.efficiency; elementwise, norms and fused epilogues on the vector
//   engines of the cores the op is spread over;
// - SRAM: resident weights and every activation are read and written at the op's cores' SRAM
//   bandwidth; streamed weights cross DRAM at the op's chips' DRAM bandwidth × efficiency; the KV
//   cache lives in DRAM when the chip has it (tt-metal), else in SRAM;
// - the NoC: the op's activations cross the region of cores it is spread over (its side's hops at
//   the hop latency, its bytes over the region's edge links);
// - chip-to-chip: pipeline, the activations hop from the chip the previous op ended on to this op's
//   first chip, and an op spread over k chips gathers its output over k − 1 hops; tensor, a weighted
//   op's output is all-reduced over the chips (a ring: 2(N − 1) hops, 2(N − 1)/N of its bytes).
// Latencies come first (the activations must arrive), then compute, SRAM, DRAM, NoC and link bytes
// overlap (cores stream their operands while they multiply) on the machine (spatial_machine).
#include <string>

#include "models/spatial/spatial_chip.h"
#include "models/spatial/spatial_placement.h"
#include "ops/op.h"

namespace hwsim {

struct SpatialWork {
  std::string name, op_class, dtype, config;
  double flops = 0, compute_seconds = 0;
  double sram_bytes = 0, sram_rate = 0;  // rate: bytes/s of the op's cores
  double dram_bytes = 0, dram_rate = 0;  // rate: its chips' DRAM at efficiency
  double noc_bytes = 0, noc_rate = 0, noc_latency = 0;
  double c2c_bytes = 0, c2c_rate = 0, c2c_latency = 0;
  double cores = 1, chips = 1;
  double peak_flop_rate = 0;  // the deployment's, in the math dtype (the record's roof)
  double overhead = 0;
};

// `previous_last_chip`: the chip the previous op ended on (pipeline hops). Throws UserError(workload)
// for an op a spatial chip cannot run (a collective, a recorded trace op).
SpatialWork lower_spatial_op(const Op& op, const OpPlacement& place, double previous_last_chip,
                             const SpatialChip& chip);

// Router hops an activation crosses over a region of `cores` cores of one chip: the two sides of a
// square region, or the chip's span when it fills the chip (halved on a torus).
double noc_hops(double cores, const SpatialChip& chip);

}  // namespace hwsim
