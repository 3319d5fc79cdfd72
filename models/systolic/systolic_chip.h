#pragma once
// The typed description of a systolic-array accelerator (Google TPU style), built once from a
// validated Config (parameters declared in systolic_chip.cpp with units and descriptions). The
// lowering and the machine read this struct, never the config.
//
// A chip has `tensorcores` TensorCores; each has `mxus` matrix units (square-ish arrays of
// rows × cols MAC cells working in one dataflow), a vector unit (lanes × sublanes cells of `alus`
// ALUs each) and its own VMEM scratchpad. HBM is shared by all TensorCores.
#include <array>
#include <cstdint>
#include <string>

#include "ops/dtype.h"

namespace hwsim {

class Config;

// Which operand stays in the array (SCALE-Sim's names): ws = weights (the N×K operand), os =
// outputs (partial sums accumulate in place), is = inputs (the M×K operand).
enum class Dataflow { ws, os, is };
// How a fold's stationary operand gets into the array: serial = load, then stream (SCALE-Sim);
// overlapped = the next fold's operand is shifted in while the current one streams (TPU MXUs
// double-buffer their weight registers).
enum class Preload { overlapped, serial };
// How an output-stationary fold's results leave the array: exposed = shifted out after the stream,
// R cycles of their own (the SCALE-Sim paper's 2R + C + T − 2 per fold); overlapped = shifted out
// under the fold's own skew and the next fold's stream (SCALE-Sim v2/v3's demand matrices:
// R + C + T − 2 per fold). ws and is always load their stationary operand (R cycles).
enum class OsDrain { exposed, overlapped };
// Which way a GEMM out = x·Wᵀ is fed to the arrays: automatic = the compiler tries it as given and
// transposed (outᵀ = W·xᵀ, the operands swap roles) and keeps the faster; as_given = x is the
// ifmap and W the filter (SCALE-Sim's mapping); transposed = always outᵀ = W·xᵀ.
enum class Orientation { automatic, as_given, transposed };
// How XLA lowers attention without a custom kernel (materialized: QKᵀ scores written to HBM, a
// softmax pass, then P·V) or with a flash-style kernel (fused: scores stay in VMEM).
enum class AttentionMode { materialized, fused };

struct SystolicChip {
  std::string name;

  // Compute
  int tensorcores = 0;
  double clock_hz = 0;
  int mxus = 0;                        // per TensorCore
  int rows = 0, cols = 0;              // MAC cells of one MXU
  Dataflow dataflow = Dataflow::ws;
  Preload preload = Preload::overlapped;
  OsDrain os_drain = OsDrain::exposed;
  Orientation orientation = Orientation::automatic;
  std::array<double, kDTypeCount> macs_per_cell{};  // per clock, by math dtype; 0 = unsupported
  double mxu_efficiency = 1;           // sustained fraction of the fold arithmetic (issue gaps)
  int vpu_lanes = 0, vpu_sublanes = 0, vpu_alus = 0;
  double softmax_ops = 0;              // VPU ops per attention score
  double dequant_ops = 0;              // VPU ops per weight element stored narrower than the math

  // Memory
  double vmem_bytes = 0;               // per TensorCore
  double vmem_bandwidth = 0;           // bytes/s per TensorCore (VMEM ↔ MXU/VPU)
  double hbm_bytes = 0;
  double hbm_bandwidth = 0;            // datasheet
  double hbm_latency = 0;
  double hbm_efficiency = 1;
  // Per-operand scratchpads and DRAM channels (SCALE-Sim's Ifmap/Filter/OfmapSramSzkB and its
  // per-operand interface bandwidths); 0 = not split: the operands share vmem_bytes, and HBM
  // alone limits them. The ifmap is the streamed activation x (W when fed transposed), the
  // filter the other input, the ofmap the output with its f32 accumulator.
  double ifmap_vmem = 0, filter_vmem = 0, ofmap_vmem = 0;
  double ifmap_bandwidth = 0, filter_bandwidth = 0, ofmap_bandwidth = 0;
  // A fixed GEMM block in the problem's (M, N, K), as a Pallas kernel's BlockSpec sets it;
  // 0 = the lowering chooses (XLA's tiling).
  std::int64_t block_m = 0, block_n = 0, block_k = 0;

  // Overheads and simulation bounds
  double op_overhead = 0;              // seconds per fused op: dispatch, DMA descriptors, sync
  double step_overhead = 0;            // seconds per pipeline step (loop iteration, semaphore wait)
  double host_dispatch = 0;            // seconds per step: the host's call of one jitted program
                                       // until it sees the result (not device time)
  AttentionMode attention = AttentionMode::materialized;

  // Power
  double tdp_watts = 0, idle_watts = 0;
  double mxu_joules_per_flop = 0, vpu_joules_per_flop = 0;
  double vmem_joules_per_byte = 0, hbm_joules_per_byte = 0;

  static SystolicChip from_config(const Config& config);

  double cells() const { return double(rows) * double(cols); }
  // Dense FLOP/s of the whole chip for a math dtype (2 FLOP per MAC); 0 = unsupported.
  double peak_flop_rate(DType t) const {
    return double(tensorcores) * mxus * cells() * macs_per_cell[std::size_t(t)] * 2.0 * clock_hz;
  }
  bool supports(DType t) const { return macs_per_cell[std::size_t(t)] > 0; }
  // Vector ops per second of one TensorCore's VPU.
  double vpu_rate() const { return double(vpu_lanes) * vpu_sublanes * vpu_alus * clock_hz; }
  double usable_hbm_bandwidth() const { return hbm_bandwidth * hbm_efficiency; }
  bool split_vmem() const { return ifmap_vmem > 0 || filter_vmem > 0 || ofmap_vmem > 0; }
  // Seconds HBM needs for these bytes alone: the shared rate, and each operand's own channel
  // where one is set (the slowest sets the time).
  double hbm_seconds(double ifmap_bytes, double filter_bytes, double ofmap_bytes) const;
};

std::string_view dataflow_name(Dataflow d);

}  // namespace hwsim
