#pragma once
// GEMM lowering for the systolic chip (pure, deterministic, no SystemC): choose VMEM blocks and an
// operand orientation, then describe the op as a double-buffered pipeline of block steps.
//
// out[M,N] = x[M,K]·W[N,K]ᵀ (× groups) is cut into blocks bm × bn × bk. Each block dimension that
// the dataflow maps onto the array is a multiple of the array's side (or the whole, padded,
// dimension); the streamed dimension is a multiple of the vector unit's sublanes. A block fits
// VMEM double-buffered: 2·(bm·bk·a + bn·bk·b) + bm·bn·4 (f32 accumulator) + 2·bm·bn·out
// (+ bn·bk·2 for a bf16 copy of narrower weights) ≤ memory.vmem.size.
// HBM traffic: A is re-read once per N block and B once per M block, C written once; when one
// block spans all of K, the loop order keeping one operand resident reads it once.
// The compiler may also feed the transposed problem outᵀ = W·xᵀ (the operands swap roles in the
// array); both orientations are candidates unless systolic.mxu.orientation fixes one. A fixed
// block (systolic.gemm.block_*, a Pallas BlockSpec) is the only candidate along its dimension.
// With per-operand scratchpads (memory.vmem.ifmap_size, ...) each operand's part must fit its own. Among the blocks that fit, the one with the smallest
// estimated time (the same arithmetic the machine simulates, without contention) wins; ties keep
// the larger block. Blocks go to the TensorCores whole (the K steps of a block stay on one core).
// A batched GEMM whose groups are small (decode attention: one (sequence, KV head) per group) packs
// several whole groups into one step when they fit VMEM together: one per-step cost and one
// exposed load, skew and drain for the chain instead of one per group.
#include <cstdint>
#include <optional>
#include <string>

#include "models/systolic/op_plan.h"
#include "models/systolic/systolic_chip.h"

namespace hwsim {

struct GemmProblem {
  std::int64_t m = 0, n = 0, k = 0, groups = 1;
  double a_bytes = 2, b_bytes = 2, out_bytes = 2;  // per element as stored in HBM
  double macs_per_cell = 1;                        // of the math dtype
  bool dequant_a = false;   // x stored narrower than the math: converted on the vector unit
  bool dequant_b = false;   // W stored narrower than the math (int4/int8 weights): likewise
  bool may_keep_resident = true;  // false: no loop order keeps an operand in VMEM across blocks
                                  // (a flash kernel re-streams K and V for every query block)
};

struct GemmBlocking {
  std::int64_t bm = 0, bn = 0, bk = 0;  // in the problem's own coordinates (M, N, K)
  bool transposed = false;              // fed as outᵀ = W·xᵀ
  bool b_resident = false;              // one block spans K and W is read once (M loop inside)
  bool a_resident = false;              // ... x is read once (N loop inside)
  double estimate = 0;                  // seconds, the chooser's estimate
  double vmem_footprint = 0;            // bytes per TensorCore
  std::int64_t groups_per_step = 1;     // a block spanning a whole group: this many groups packed
                                        // into one pipeline step, their folds chained
};

// Bytes of VMEM a block needs, by operand: x double-buffered (+ its bf16 copy when widened), W
// likewise, the output's f32 accumulator and its double-buffered stored form.
struct BlockFootprint { double a = 0, b = 0, out = 0; };
BlockFootprint operand_footprint(const GemmProblem& p, std::int64_t bm, std::int64_t bn, std::int64_t bk);
// Bytes of VMEM a block needs double-buffered (the sum).
double block_footprint(const GemmProblem& p, std::int64_t bm, std::int64_t bn, std::int64_t bk);
// The same for a block of `p` as stored: a block larger than the problem along a dimension (padded
// to the array for the MXU) holds only the problem's rows there, rounded up to the vector unit's
// sublane tile (a 4-query decode group is 8 rows in VMEM, not 128 or 256).
double stored_footprint(const GemmProblem& p, std::int64_t bm, std::int64_t bn, std::int64_t bk,
                        const SystolicChip& chip);
BlockFootprint stored_operands(const GemmProblem& p, std::int64_t bm, std::int64_t bn, std::int64_t bk,
                               const SystolicChip& chip);

// The fastest blocking that fits; nullopt when even the smallest block does not fit VMEM.
std::optional<GemmBlocking> choose_gemm_blocking(const GemmProblem& p, const SystolicChip& chip);

// The smallest block's footprint (for the error message when nothing fits).
double smallest_footprint(const GemmProblem& p, const SystolicChip& chip);

// The pipeline phase of a GEMM under a blocking.
Phase gemm_phase(const GemmProblem& p, const GemmBlocking& b, const SystolicChip& chip, std::string name);

}  // namespace hwsim
