#pragma once
// Attention on the systolic chip (pure). Queries of the heads sharing one KV head (GQA) are
// stacked into the rows of one matrix, so per (sequence, KV head) attention is two GEMMs:
// S[q·h, kv] = Q·Kᵀ and O[q·h, d] = P·V.
//  - materialized (XLA without a custom kernel): three phases in one record — QKᵀ writing the
//    scores to HBM (every (query, key) pair: XLA computes the masked ones too), a softmax vector
//    pass reading and writing them (systolic.vpu.softmax_ops per score), then P·V reading them.
//  - fused (flash-style kernel): one phase; per (query block, KV block) step the K and V blocks
//    are loaded, both GEMMs run on the MXUs and the online softmax on the vector unit; scores stay
//    in VMEM; blocks above the causal diagonal or outside the window are skipped.
// KV stored narrower than the math dtype (int8, fp8) is widened on the vector unit.
#include <string>
#include <vector>

#include "models/systolic/op_plan.h"
#include "models/systolic/systolic_chip.h"
#include "ops/op.h"

namespace hwsim {

// The phases of one attention op (fused elementwise work is added by the caller, op_lowering).
// Throws UserError(workload) when a block cannot fit VMEM.
std::vector<Phase> attention_phases(const AttentionOp& a, const std::string& op_name, const SystolicChip& chip);

}  // namespace hwsim
