#pragma once
// The kernels of a step's ops as a device runs them, op by op: an op's kernel summaries (figures,
// CTA count, renamed digest: what a replayed kernel needs, kernel_replay.h) are kept by position
// while the op there stays the same (a long generate's decode steps differ only in their attention
// ops), and otherwise taken from the lowering memo (lowering_memo.h: one lowering per shape, its
// identities renamed); an op's CTAs are only made when a kernel is simulated, not replayed.
#include <cstdint>
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
    std::uint64_t version = 0;  // of its contents: each op put here has a new one
    bool same(const Op& op, const TensorIds& t) const;
  };
  Entry& entry(std::size_t index);
  std::vector<Entry> entries_;  // by position in the step
  std::uint64_t versions_ = 0;  // the last version given
  LoweringMemo memo_;
  std::vector<KernelSummary> renamed_;  // scratch of summaries()
  std::vector<PackedKernel> scratch_;   // the kernels of the op last asked for: the entry's at
  std::size_t scratch_index_ = 0;       // position scratch_index_ of version scratch_version_
  std::uint64_t scratch_version_ = 0;   // (0: none yet)
};

}  // namespace hwsim
