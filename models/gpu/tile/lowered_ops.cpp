#include "models/gpu/tile/lowered_ops.h"

#include <cstring>
#include <variant>

#include "models/gpu/tile/tile_step_lowering.h"

namespace hwsim {

// Byte-wise equal shapes are equal (a difference in padding only makes a needless miss).
bool LoweredOps::Entry::same(const Op& op, const TensorIds& t) const {
  if (!valid || !op.fused.empty() || op.name != name || op.op_class != op_class || op.shape.index() != shape.index() ||
      t.input != tensors.input || t.output != tensors.output)
    return false;
  return std::visit([&](const auto& mine) {
    using S = std::decay_t<decltype(mine)>;
    return std::memcmp(&mine, &std::get<S>(op.shape), sizeof(S)) == 0;
  }, shape);
}

std::vector<PackedKernel> LoweredOps::lower(const StepProgram& step, std::size_t index, const GpuChip& chip) const {
  std::vector<PackedKernel> kernels;
  for (Kernel& k : lower_tile_op(step, index, chip)) {
    if (!chip.vocabulary.is_nvidia()) k.config = chip.vocabulary.reword(k.config);  // lowerings speak NVIDIA's words
    kernels.push_back(PackedKernel::pack(std::move(k)));
  }
  return kernels;
}

LoweredOps::Entry& LoweredOps::entry(std::size_t index) {
  if (index >= entries_.size()) entries_.resize(index + 1);
  return entries_[index];
}

const std::vector<KernelSummary>& LoweredOps::summaries(const StepProgram& step, std::size_t index,
                                                        const GpuChip& chip) {
  OpVertex v = step.order[index];
  const Op& op = (*step.graph)[v];
  Entry& e = entry(index);
  if (e.same(op, step.tensors[v])) return e.summaries;
  std::vector<PackedKernel> kernels = lower(step, index, chip);
  held_ctas_ -= e.ctas;
  e = Entry{};
  std::size_t ctas = 0;
  for (const PackedKernel& k : kernels) ctas += k.ctas.size(), e.summaries.push_back(KernelSummary::of(k));
  e.name = op.name, e.op_class = op.op_class, e.shape = op.shape, e.tensors = step.tensors[v];
  e.valid = true;
  if (held_ctas_ + ctas > kMaxHeldCtas) {  // not held: used once, lowered again if needed
    scratch_ = std::move(kernels);
  } else {
    e.kernels = std::move(kernels);
    e.ctas = ctas, e.held = true;
    held_ctas_ += ctas;
    scratch_.clear();
  }
  return e.summaries;
}

const std::vector<PackedKernel>& LoweredOps::kernels(const StepProgram& step, std::size_t index, const GpuChip& chip) {
  const Entry& e = entry(index);
  if (e.held) return e.kernels;
  // Lowered just now (summaries()) and not held: in scratch_, unless an earlier step lowered it.
  if (scratch_.size() != e.summaries.size() || (!scratch_.empty() && scratch_[0].names_memo != e.summaries[0].names)) {
    scratch_ = lower(step, index, chip);  // the same kernels again: lowering is pure
    for (std::size_t i = 0; i < scratch_.size(); ++i) scratch_[i].names_memo = e.summaries[i].names;
  }
  return scratch_;
}

}  // namespace hwsim
