#pragma once
// What an op graph holds in memory, by shapes alone (hardware-free): each op's constant operands
// (weights) and activations, and the activation arena a static planner needs (TFLite Micro style:
// every tensor lives from the op that writes it to the last op that reads it; the model's input
// from the start, its outputs to the end). The arena is the peak of the live bytes, the lower bound
// any planner reaches; a greedy planner may add fragmentation.
#include <cstddef>
#include <vector>

#include "ops/op_graph.h"

namespace hwsim {

// Constant operands: a conv's filters with their per-channel scales and biases; a GEMM's weight
// matrix W per group (plus an int32 bias per output when the weights are int8, as TFLite's int8
// fully connected layer stores it). 0 for every other op.
double op_weight_bytes(const Op& op);
double op_activation_input_bytes(const Op& op);   // every activation input the op reads
double op_activation_output_bytes(const Op& op);

struct ArenaPlan {
  std::vector<double> live;   // bytes live while the op at each position of `order` runs
  double peak = 0;
  std::size_t peak_at = 0;    // position of the first op at the peak
  double weight_bytes = 0;    // every op's op_weight_bytes
};

ArenaPlan plan_arena(const OpGraph& graph, const std::vector<OpVertex>& order);

}  // namespace hwsim
