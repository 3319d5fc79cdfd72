#pragma once
// A GPU kernel as the tile model runs it: a grid of CTAs, each a unit of work that loads operand
// objects (through L2, from HBM on a miss), does math on one SM, and writes results.
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/dtype.h"

namespace hwsim {

struct OperandRead {
  std::int64_t object;  // L2 identity (a panel or tensor); < 0 = streaming, never reused
  double bytes;
};

struct CtaWork {
  double flops = 0;
  std::vector<OperandRead> reads;
  double write_bytes = 0;    // results written back to device memory
  double scratch_bytes = 0;  // L2-only traffic (split-K partial sums)
};

struct Kernel {
  std::string name;          // op name
  std::string op_class;      // "gemm", "norm", ...
  std::string config;        // human description of the lowering choice
  DType dtype = DType::bf16; // math dtype
  double sm_flop_rate = 0;   // FLOP/s one SM sustains on this kernel's math (efficiency applied)
  int ctas_per_sm = 1;       // resident CTAs per SM (occupancy)
  double bytes_in_flight = 0;// per CTA: outstanding load bytes its pipeline keeps (Little's law)
  double l2_read_factor = 1; // L2 traffic per operand byte (< 1 with cluster multicast)
  double prologue = 0;       // seconds before a CTA's first math (pipeline fill)
  std::vector<CtaWork> ctas; // in dispatch order
  // op-level figures for the roofline
  double flops = 0;
  double min_bytes = 0;
  double peak_flop_rate = 0; // chip peak for the dtype (no efficiency)
};

}  // namespace hwsim
