#pragma once
// Tensor identities of a step's ops, so a device's caches and scratchpads find what an earlier op
// wrote (hardware-free: it only reads the op graph).
#include <cstdint>
#include <vector>

#include "ops/op_graph.h"

namespace hwsim {

// Which tensors an op reads and writes: ids >= 0 name a tensor; -1 = no identity (streamed,
// never reused).
struct TensorIds {
  std::int64_t input = -1;
  std::int64_t output = -1;
};

// At most this many distinct tensors per step keep an identity; later ones are streamed.
constexpr std::int64_t kMaxTensorIds = std::int64_t(1) << 15;

// One TensorIds per vertex: named tensors (Op::input_tensor/output_tensor) share an id; an unnamed
// output gets its own; an unnamed input is the first graph predecessor's output. Deterministic.
std::vector<TensorIds> tensor_ids(const OpGraph& graph);

}  // namespace hwsim
