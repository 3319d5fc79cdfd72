#pragma once
// How an SM issues the instructions of kernels that cannot use its newest paths (hardware facts of
// the chip, used by every lowering that picks such a kernel):
//  - Hopper's full tensor rate needs the asynchronous warpgroup MMA (wgmma) fed by TMA; kernels
//    written for Ampere's warp-level mma.sync (FlashAttention-2, the CUTLASS 2.x memory-efficient
//    attention, PyTorch's tinygemm, the CUTLASS kernels cuBLAS falls back to for unaligned
//    operands) reach only part of it.
//  - Without TMA (operands not 16-byte aligned), every operand byte goes through the load/store
//    units lane by lane: loaded into registers and stored to shared memory in accesses as wide as
//    the alignment allows, one warp-wide access per LSU issue.
//  - Kernels bound by a mix of instructions (integer, conversion, shared-memory, special-function
//    and FP32 work: PyTorch's row and unvectorised elementwise kernels) issue at the warp
//    schedulers' rate, which on the A100 is twice its FP32 FMA rate (64 FP32 lanes, four schedulers
//    of 32 lanes); on Hopper and Ada the two are equal.
namespace hwsim {

class Config;

struct SmInstructionPaths {
  // gpu.sm.mma_sync_fraction: the fraction of the chip's tensor-core rate (gpu.sm.flops_per_clock)
  // that warp-level mma.sync kernels can issue; 1 on chips without a separate warpgroup path.
  double mma_sync_fraction = 1;
  // gpu.sm.lsu_lanes_per_clock: lane accesses (of up to 16 bytes each) the SM's load/store path
  // serves per clock, loads and shared-memory stores together.
  double lsu_lanes_per_clock = 32;
  // gpu.sm.issue_lanes_per_clock: lane instructions the SM's warp schedulers issue per clock; 0 =
  // the FP32 FMA lanes (flops_per_clock.fp32 / 2).
  double issue_lanes_per_clock = 0;
  // gpu.sm.exp_per_clock: exponentials (MUFU.EX2) the SM's special-function units return per clock.
  // Attention kernels take one per score against 4·head_dim tensor FLOPs, so where tensor cores
  // outgrew the SFUs (Blackwell) short heads are bound by them.
  double exp_per_clock = 16;

  static SmInstructionPaths from_config(const Config& config);
};

}  // namespace hwsim
