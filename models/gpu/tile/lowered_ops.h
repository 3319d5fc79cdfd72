#pragma once
// The kernels of a step's ops, lowered once and reused while an op stays the same: lowering is a
// pure function of the op (name, class, shape), its tensor identities and its position in the step
// (its L2 object ids), and a long generate's decode steps differ only in their attention ops.
// Kernels are held within a budget of CTAs, so one huge step (a long prefill) is not held whole;
// an op's kernel summaries (figures, CTA count, renamed digest: what a replayed kernel needs) are
// kept whatever the budget, so a kernel that replays (kernel_replay.h) is not lowered again.
#include <string>
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/tile/packed_kernel.h"
#include "ops/op_graph.h"
#include "ops/device.h"

namespace hwsim {

class LoweredOps {
 public:
  // The summaries of step.order[index]'s kernels, in launch order (valid until the next call).
  const std::vector<KernelSummary>& summaries(const StepProgram& step, std::size_t index, const GpuChip& chip);
  // Its kernels, held or lowered again (valid until the next call); after summaries() for it.
  const std::vector<PackedKernel>& kernels(const StepProgram& step, std::size_t index, const GpuChip& chip);

 private:
  // About 5 MB of lowered CTAs at most (a decode step of an 8B model holds 30 thousand).
  static constexpr std::size_t kMaxHeldCtas = std::size_t(1) << 16;
  struct Entry {
    bool valid = false, held = false;  // summaries valid; kernels held
    std::string name, op_class;
    Op::Shape shape;
    TensorIds tensors;
    std::vector<KernelSummary> summaries;
    std::vector<PackedKernel> kernels;
    std::size_t ctas = 0;  // held
    bool same(const Op& op, const TensorIds& t) const;
  };
  std::vector<PackedKernel> lower(const StepProgram& step, std::size_t index, const GpuChip& chip) const;
  Entry& entry(std::size_t index);
  std::vector<Entry> entries_;  // by position in the step
  std::size_t held_ctas_ = 0;
  std::vector<PackedKernel> scratch_;
};

}  // namespace hwsim
