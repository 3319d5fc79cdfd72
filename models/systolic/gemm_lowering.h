#pragma once
// From a workload's GemmOp to the systolic pipeline (pure): the math dtype and its checks, the
// blocking (gemm_blocking.h), and the one-line error when no block fits VMEM.
#include <string>

#include "models/systolic/gemm_blocking.h"
#include "ops/op.h"

namespace hwsim {

// The dtype the MXUs compute in: the activation dtype. Weights stored narrower (int4, or int8/fp8
// under bf16 activations) are widened to it on the vector unit.
DType systolic_math_dtype(const GemmOp& g);

// The GEMM as the blocking sees it (bytes per element, MACs per cell, dequantisation).
GemmProblem gemm_problem(const GemmOp& g, const SystolicChip& chip);

// The fastest blocking that fits VMEM; UserError(workload) naming the op, the smallest tile's
// footprint and memory.vmem.size when none does.
GemmBlocking choose_or_fail(const GemmProblem& p, const std::string& op, const SystolicChip& chip);

// choose_or_fail, then gemm_phase.
Phase lower_gemm_problem(const GemmProblem& p, const std::string& op, const std::string& phase, const SystolicChip& chip);

}  // namespace hwsim
