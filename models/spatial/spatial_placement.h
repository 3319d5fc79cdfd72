#pragma once
// The compiler's static placement of one step's ops on a spatial deployment (pure, deterministic):
// which cores and chips each op runs on, and whether its weights (a GEMM's B operand) stay resident
// in SRAM or stream from DRAM every step.
//
// - Weights are laid into SRAM in execution order, op after op, filling each core's SRAM and each
//   chip's cores before the next (a layer may straddle two chips). Each op gets the cores that hold
//   its weights: an op's weights in SRAM are read by the cores they sit on, so a big op is spread
//   over many cores (a wafer's layer over tens of thousands).
// - Where SRAM runs out, the rest streams from DRAM if the chip has any (Wormhole's 12 GB of GDDR6:
//   Llama-3.1-8B does not fit 108 MB, so nearly all of it streams), each chip streaming an equal share
//   of the streamed ops in execution order over all its cores. Without DRAM (Groq, Cerebras) a model
//   whose weights do not fit the deployment's SRAM is refused with the number of chips it needs.
// - An op without weights (attention, a norm) runs where the activations are: on the cores of the op
//   before it, on the chip that op ended on. Pipeline: consecutive ops on consecutive chips. Tensor:
//   every op on every chip, each holding (or streaming) 1/chips of its weights.
// SRAM also holds the KV cache and activations on a chip without DRAM; the runner's capacity check
// counts them against the deployment's SRAM (DeviceInfo's main memory), this placement the weights.
#include <string>
#include <vector>

#include "models/spatial/spatial_chip.h"
#include "ops/op_graph.h"

namespace hwsim {

struct OpPlacement {
  double weight_bytes = 0;   // the op's weights as stored (0: an op without weights)
  bool resident = false;     // weights in SRAM (else streamed from DRAM, when weight_bytes > 0)
  double first_chip = 0;     // chips [first_chip, first_chip + chips)
  double chips = 1;
  double cores = 1;          // cores the op is spread over, all its chips together
};

struct StepPlacement {
  std::vector<OpPlacement> ops;  // one per op, in execution order
  double resident_bytes = 0, streamed_bytes = 0;
};

// Bytes of the weights an op holds: a GEMM's B operand as stored (block floats counted), else 0.
double op_weight_bytes(const Op& op, const SpatialChip& chip);

// Places the step's ops, `order` their execution order. Throws UserError(workload) when weights do
// not fit a deployment without DRAM, naming the chips it would need.
StepPlacement place_step(const OpGraph& graph, const std::vector<OpVertex>& order, const SpatialChip& chip);

// The clause a refusal ends with: how many chips of this kind's main memory (DRAM where it has any, else
// SRAM) hold `bytes`, and how to ask for them ("71 chips of 230 MB SRAM hold it (1 given): --set
// spatial.chips=71"); past spatial.chips' bound, the per-chip memory to raise instead.
std::string chips_advice(double bytes, const SpatialChip& chip);

// The fewest chips whose main memory holds `bytes` (at least 1; may pass SpatialChip::kMaxChips).
double chips_to_hold(double bytes, const SpatialChip& chip);

}  // namespace hwsim
