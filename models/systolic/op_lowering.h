#pragma once
// One op of a step → the OpPlan the systolic machine runs (pure, deterministic): dtype checks,
// the GEMM / vector / attention lowering, and the elementwise work XLA fused into the op (Op::fused:
// its vector ops run on the vector unit beside the MXU epilogue, its extra bytes are loaded and
// stored with the op's own). Plans of identical shapes are memoised (a model's layers repeat).
#include <map>
#include <string>

#include "models/systolic/op_plan.h"
#include "models/systolic/systolic_chip.h"
#include "ops/op.h"

namespace hwsim {

class OpLowering {
 public:
  explicit OpLowering(const SystolicChip& chip) : chip_(chip) {}

  // Throws UserError(workload) for a dtype the chip lacks or an op no VMEM block can hold.
  OpPlan lower(const Op& op);

 private:
  std::vector<Phase> phases_of(const Op& op, const std::string& key);
  const SystolicChip& chip_;
  std::map<std::string, std::vector<Phase>> cache_;  // by shape (and fused work)
};

// Refuses a math or storage dtype the chip does not have (one line naming op, dtype, chip, key).
void check_dtypes(const Op& op, const SystolicChip& chip);

}  // namespace hwsim
