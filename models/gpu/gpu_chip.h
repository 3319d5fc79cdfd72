#pragma once
// The typed description of a GPU, built once from a validated Config (the parameters are declared
// in gpu_chip.cpp, with units and descriptions). Models read this struct, never the config.
#include <array>
#include <string>

#include "models/gpu/block_scale_paths.h"
#include "models/gpu/gpu_memory_layout.h"
#include "models/gpu/instruction_paths.h"
#include "models/gpu/library_habits.h"
#include "models/gpu/power/gpu_power_params.h"
#include "models/gpu/library_habits_attention.h"
#include "models/gpu/library_habits_elementwise.h"
#include "models/gpu/library_habits_quant.h"
#include "models/gpu/vendor_vocabulary.h"
#include "ops/dtype.h"

namespace hwsim {

class Config;

struct GpuChip {
  std::string name;
  std::string core_model;            // gpu.core.model: "tile" (workloads) or "warp" (kernel programs)

  // Streaming multiprocessors
  int sm_count = 0;
  double clock_hz = 0;               // SM clock
  std::array<double, kDTypeCount> flops_per_clock{};  // dense FLOP per clock per SM, indexed by DType, FP32 accumulate; 0 = unsupported
  // The same with FP16 accumulate, for the dtypes whose tensor cores offer it (fp16, fp8): GeForce
  // parts run it at twice their FP32-accumulate rate, datacenter parts at the same rate. 0 = none.
  std::array<double, kDTypeCount> flops_per_clock_acc16{};
  int max_warps_per_sm = 0;
  int max_ctas_per_sm = 0;
  int registers_per_sm = 0;
  double shared_memory_per_sm = 0;   // bytes usable by CTAs
  double l1_bytes = 0;               // L1 + shared memory array
  double sm_port_bytes_per_clock = 0;// SM ↔ L2 bytes per clock

  // Memory hierarchy
  double l2_bytes = 0;
  double l2_bandwidth = 0;           // bytes/s
  double l2_latency = 0;             // seconds
  double hbm_bytes = 0;
  double hbm_bandwidth = 0;          // bytes/s, datasheet
  double hbm_latency = 0;            // seconds
  double hbm_efficiency = 0;         // achievable fraction of hbm_bandwidth
  // Partitions with private L2 slices and the memory-side cache (AMD XCDs, Infinity Cache);
  // one partition and none for NVIDIA. l2_bytes / l2_bandwidth above are chip totals.
  GpuMemoryLayout layout;

  // Vendor facts: the words reports use, the threads of a warp/wavefront, the GEMM library's habits.
  GpuVocabulary vocabulary;
  int warp_size = 32;                // gpu.sm.warp_size: NVIDIA warp 32, AMD CDNA wavefront 64
  GemmLibraryHabits gemm_library;
  AttentionHabits attention_library;  // attention implementations offered, SDPA's order
  QuantHabits quant_library;          // the fused weight-only GEMM kernel
  ElementwiseHabits elementwise_library;  // PyTorch's unvectorised elementwise and softmax kernels
  SmInstructionPaths paths;           // mma.sync share of the tensor rate, the LSU path without TMA
  BlockScalePaths block_scale;        // who applies fp8 block scales (tensor core or CUDA cores)

  // Power and energy (models/gpu/power/gpu_power_params.h): the board limit the clock governor
  // holds, static power, and the energy of SM activity, FLOPs per dtype, L2, HBM and MALL bytes.
  GpuPowerParams power;

  // Documented efficiency / overhead parameters (fitted, see configs/ and docs/calibration.md)
  double launch_overhead = 0;        // seconds per kernel: launch, grid start and drain
  double cta_overhead = 0;           // seconds per CTA: setup, epilogue sync
  double reduce_combine = 0;         // seconds: a reduction split over CTAs combining its partials
  double tensor_efficiency = 0;      // sustained fraction of the tensor-core peak in a GEMM mainloop
  double simt_efficiency = 0;        // sustained fraction of the FP32 CUDA-core peak
  double attention_efficiency = 0;   // sustained fraction of the tensor-core peak in attention (softmax)
  double attention_overhead = 0;     // seconds per attention CTA start (descriptor setup, softmax init)
  int cluster_size = 1;              // CTAs sharing one operand load through multicast (Hopper: 2)
  double tile_load_dram_efficiency = 1; // DRAM efficiency of 2-D operand tile loads vs a stream

  double flop_rate_per_sm(DType t) const { return flops_per_clock[int(t)] * clock_hz; }
  double peak_flop_rate(DType t) const { return flop_rate_per_sm(t) * sm_count; }
  // Math in t summed in acc: the FP16-accumulate rate where the chip has one for t, else the
  // FP32-accumulate rate (acc = fp32 always gives the plain rate above).
  double flop_rate_per_sm(DType t, DType acc) const {
    double acc16 = flops_per_clock_acc16[int(t)];
    return (acc == DType::fp16 && acc16 > 0 ? acc16 : flops_per_clock[int(t)]) * clock_hz;
  }
  double peak_flop_rate(DType t, DType acc) const { return flop_rate_per_sm(t, acc) * sm_count; }
  double usable_hbm_bandwidth() const { return hbm_bandwidth * hbm_efficiency; }
  bool supports(DType t) const { return flops_per_clock[int(t)] > 0; }
  int sms_per_partition() const { return sm_count / layout.partitions; }
  int partition_of_sm(int sm) const { return sm / sms_per_partition(); }
  int threads_per_sm() const { return max_warps_per_sm * warp_size; }

  static GpuChip from_config(const Config& config);
};

}  // namespace hwsim
