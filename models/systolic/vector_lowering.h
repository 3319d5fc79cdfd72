#pragma once
// A vector pass (norm, activation, residual add, softmax, copy) on the systolic chip (pure): the
// bytes stream HBM → VMEM → vector unit → VMEM → HBM in chunks, double-buffered, the chunks dealt
// to the TensorCores. Time per chunk is max(its bytes at the HBM share, its ops at the VPU rate);
// the chunk count is chosen like GEMM blocks: the smallest estimated time among power-of-two
// counts whose chunks fit VMEM twice over (more chunks hide more of the first load and last
// store, but pay the per-step overhead each), never a chunk smaller than one vector register tile.
#include <optional>
#include <string>

#include "models/systolic/op_plan.h"
#include "models/systolic/systolic_chip.h"

namespace hwsim {

struct VectorWork {
  double bytes_read = 0, bytes_written = 0;
  double ops = 0;          // vector ops (one per ALU per clock)
};

// nullopt when not even the smallest chunk fits VMEM double-buffered.
std::optional<Phase> vector_phase(const VectorWork& work, const SystolicChip& chip, std::string name);

}  // namespace hwsim
