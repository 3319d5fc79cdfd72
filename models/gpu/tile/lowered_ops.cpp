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
  IdentityRenaming renaming;
  const LoweringMemo::Lowered& canonical = memo_.lowered(op, step.tensors[v], op_object_base(index), chip, renaming);
  renamed_.clear();
  for (std::size_t k = 0; k < canonical.summaries.size(); ++k)  // names shared with the op here before, if alike
    renamed_.push_back(renaming.summary(canonical.summaries[k], k < e.summaries.size() ? e.summaries[k].names : nullptr));
  e.summaries.swap(renamed_);
  renamed_.clear();
  e.name.assign(op.name), e.op_class.assign(op.op_class), e.shape = op.shape, e.tensors = step.tensors[v];
  e.version = ++versions_, e.valid = true;
  return e.summaries;
}

const std::vector<PackedKernel>& LoweredOps::kernels(const StepProgram& step, std::size_t index, const GpuChip& chip) {
  const Entry& e = entry(index);
  if (scratch_index_ == index && scratch_version_ == e.version && e.version != 0)
    return scratch_;  // this op's, made for an earlier kernel of it
  OpVertex v = step.order[index];
  const Op& op = (*step.graph)[v];
  IdentityRenaming renaming;
  const LoweringMemo::Lowered& canonical = memo_.lowered(op, step.tensors[v], op_object_base(index), chip, renaming);
  scratch_.clear();
  if (canonical.held)
    for (const PackedKernel& k : canonical.kernels) scratch_.push_back(renaming.kernel(k));
  else  // too many CTAs to hold: lowered again with its own identities (lowering is pure)
    scratch_ = pack_kernels(lower_tile_op(step, index, chip), chip);
  for (std::size_t i = 0; i < scratch_.size(); ++i) scratch_[i].names_memo = e.summaries[i].names;
  scratch_index_ = index, scratch_version_ = e.version;
  return scratch_;
}

}  // namespace hwsim
