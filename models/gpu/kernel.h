#pragma once
// A GPU kernel as the tile model runs it: a grid of CTAs, each a unit of work that loads operand
// objects (through L2, from HBM on a miss), does math on one SM, and writes results.
#include <cstdint>
#include <string>
#include <vector>

#include "models/gpu/cta_list.h"
#include "ops/dtype.h"
#include "ops/tensor_ids.h"

namespace hwsim {

// The tile model simulates every CTA (and every output tile of a stream-K GEMM); beyond this many
// per kernel its memory would grow past a few GB, so a larger kernel is refused with a clear error.
constexpr double kMaxWorkItemsPerKernel = 4e6;

// Throws UserError(workload) when `items` CTAs or tiles exceed kMaxWorkItemsPerKernel.
void check_kernel_size(const std::string& op_name, double items, const char* what);

struct Kernel {
  std::string name;          // op name
  std::string op_class;      // "gemm", "norm", ...
  std::string config;        // human description of the lowering choice
  DType dtype = DType::bf16; // math dtype
  double sm_flop_rate = 0;   // FLOP/s one SM sustains on this kernel's math (efficiency applied)
  int ctas_per_sm = 1;       // resident CTAs per SM (occupancy)
  double bytes_in_flight = 0;// per CTA: outstanding load bytes its pipeline keeps (Little's law)
  double l2_read_factor = 1; // L2 traffic per operand byte (< 1 with cluster multicast)
  double hbm_access_cost = 1;// HBM capacity used per byte moved (> 1 for access patterns the
                             // DRAM serves less efficiently than a sequential stream)
  double prologue = 0;       // seconds of CTA set-up before its first load; the pipeline fill
                             // (latency of the first data, from L2 or HBM) comes on top
  double grid_combine = 0;   // seconds after the last CTA retires, on the critical path: a
                             // combine of the CTAs' partial results by the grid's last CTA
  CtaList ctas;              // in dispatch order
  // op-level figures for the roofline
  double flops = 0;
  double min_bytes = 0;
  double peak_flop_rate = 0; // chip peak for the dtype (no efficiency)
};

}  // namespace hwsim
