#pragma once
// The kernels of a step's ops as a device runs them, op by op: an op's kernel summaries (figures,
// CTA count, renamed digest: what a replayed kernel needs, kernel_replay.h) are kept by position
// while the op there stays the same (a long generate's decode steps differ only in their attention
// ops), and otherwise taken from the lowering memo (lowering_memo.h: one lowering per shape, its
// identities renamed); an op's CTAs are only made when a kernel is simulated, not replayed.
#include <string>
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/tile/lowering_memo.h"
#include "models/gpu/tile/packed_kernel.h"
#include "ops/device.h"
#include "ops/op_graph.h"

namespace hwsim {

class LoweredOps {
 public:
  // The summaries of step.order[index]'s kernels, in launch order (valid until the next call).
  const std::vector<KernelSummary>& summaries(const StepProgram& step, std::size_t index, const GpuChip& chip);
  // Its kernels (valid until the next call); after summaries() for it.
  const std::vector<PackedKernel>& kernels(const StepProgram& step, std::size_t index, const GpuChip& chip);

 private:
  struct Entry {
    bool valid = false;
    std::string name, op_class;
    Op::Shape shape;
    TensorIds tensors;
    std::vector<KernelSummary> summaries;
    bool same(const Op& op, const TensorIds& t) const;
  };
  Entry& entry(std::size_t index);
  std::vector<Entry> entries_;  // by position in the step
  LoweringMemo memo_;
  std::vector<PackedKernel> scratch_;  // the kernels of the op last asked for
};

}  // namespace hwsim
