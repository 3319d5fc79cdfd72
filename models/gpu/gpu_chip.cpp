#include "models/gpu/gpu_chip.h"

#include "sim/config/config.h"
#include "sim/config/param.h"

namespace hwsim {
namespace {

// The tile model keeps state per SM: far above any GPU (B200: 148), far below what would exhaust
// memory.
constexpr double kMaxSms = 100000;
// Per-SM resources: 64x today's largest (B200: 64 warps, 32 blocks, 228 KiB of shared memory).
constexpr double kMaxPerSm = 4096, kMaxSmBytes = 1 << 24;

// Keys of a `kind = "gpu"` chip. memory.hbm.* and the shared power keys are declared in
// models/memory/main_memory_params.cpp, the GPU's other power.* keys in models/gpu/power/; name,
// description and kind in sim/config.
const ParamRegistration gpu_params({"gpu"}, {
    choice_param("gpu.core.model", {"tile", "warp"},
                 "GPU core model: tile (workloads as CTA tiles in waves) or warp (kernel programs, SIMT lane by lane)")
        .defaults_to("tile"),
    count_param("gpu.sm_count", "streaming multiprocessors").at_most(kMaxSms),
    quantity_param("gpu.sm.clock", Dimension::frequency, "SM clock (max boost)"),
    real_param("gpu.sm.flops_per_clock.fp32", "dense FP32 FLOP per clock per SM on CUDA cores (2 per FMA)"),
    real_param("gpu.sm.flops_per_clock.tf32", "dense TF32 tensor-core FLOP per clock per SM; 0 = none")
        .defaults_to("0").zero_allowed(),
    real_param("gpu.sm.flops_per_clock.bf16", "dense BF16 tensor-core FLOP per clock per SM; 0 = none")
        .defaults_to("0").zero_allowed(),
    real_param("gpu.sm.flops_per_clock.fp16", "dense FP16 tensor-core FLOP per clock per SM; 0 = none")
        .defaults_to("0").zero_allowed(),
    real_param("gpu.sm.flops_per_clock.fp8", "dense FP8 tensor-core FLOP per clock per SM; 0 = none")
        .defaults_to("0").zero_allowed(),
    real_param("gpu.sm.flops_per_clock.int8", "dense INT8 tensor-core OP per clock per SM; 0 = none")
        .defaults_to("0").zero_allowed(),
    real_param("gpu.sm.flops_per_clock.fp6", "dense FP6 (E3M2/E2M3, block-scaled) tensor-core FLOP per clock per SM; 0 = none")
        .defaults_to("0").zero_allowed(),
    real_param("gpu.sm.flops_per_clock.fp4", "dense FP4 (E2M1, block-scaled) tensor-core FLOP per clock per SM; 0 = none")
        .defaults_to("0").zero_allowed(),
    real_param("gpu.sm.flops_per_clock.fp16_acc16",
               "dense FP16 tensor-core FLOP per clock per SM with FP16 accumulate (GeForce: 2x the FP32-accumulate "
               "fp16 rate); 0 = the same as gpu.sm.flops_per_clock.fp16")
        .defaults_to("0").zero_allowed(),
    real_param("gpu.sm.flops_per_clock.fp8_acc16",
               "dense FP8 tensor-core FLOP per clock per SM with FP16 accumulate (GeForce Ada: 2x the FP32-accumulate "
               "fp8 rate); 0 = the same as gpu.sm.flops_per_clock.fp8")
        .defaults_to("0").zero_allowed(),
    count_param("gpu.sm.max_warps", "resident warps per SM").defaults_to("64").at_most(kMaxPerSm),
    count_param("gpu.sm.warp_size", "threads of a warp (NVIDIA 32) or wavefront (AMD CDNA 64)").defaults_to("32")
        .at_most(1024),
    count_param("gpu.sm.max_ctas", "resident thread blocks per SM").defaults_to("32").at_most(kMaxPerSm),
    count_param("gpu.sm.registers", "32-bit registers per SM").defaults_to("65536").at_most(kMaxSmBytes / 4),
    quantity_param("gpu.sm.shared_memory", Dimension::bytes, "shared memory a CTA may use per SM").at_most(kMaxSmBytes),
    quantity_param("gpu.sm.l1_size", Dimension::bytes, "L1 data cache + shared memory array per SM").at_most(kMaxSmBytes),
    real_param("gpu.sm.l2_port_bytes_per_clock", "bytes per SM clock one SM can exchange with L2")
        .defaults_to("64"),
    quantity_param("memory.l2.size", Dimension::bytes, "L2 cache capacity"),
    quantity_param("memory.l2.bandwidth", Dimension::bandwidth, "L2 bandwidth, all slices together"),
    quantity_param("memory.l2.latency", Dimension::time, "load-to-use latency of an L2 hit"),
    quantity_param("gpu.launch.overhead", Dimension::time,
                   "per kernel: launch from a CUDA graph, grid start and drain").defaults_to("1.5 us"),
    quantity_param("gpu.tile.cta_overhead", Dimension::time, "per CTA: setup and epilogue synchronisation")
        .defaults_to("0.3 us").zero_allowed(),
    quantity_param("gpu.tile.reduce_combine", Dimension::time,
                   "per reduction whose rows are split over CTAs (a sum of a whole tensor): the semaphore memset "
                   "before the kernel, the partials written, fenced and counted, and the last CTA's combine")
        .defaults_to("4.3 us").zero_allowed(),
    fraction_param("gpu.tile.tensor_efficiency",
                   "sustained fraction of the tensor-core peak in a GEMM mainloop (clock under load, issue)")
        .defaults_to("0.7"),
    fraction_param("gpu.tile.simt_efficiency", "sustained fraction of the FP32 CUDA-core peak in a GEMM")
        .defaults_to("0.75"),
    fraction_param("gpu.tile.attention_efficiency",
                   "sustained fraction of the tensor-core peak in FlashAttention (exp and rescale cost)")
        .defaults_to("0.55"),
    quantity_param("gpu.tile.attention_overhead", Dimension::time, "per attention CTA: setup before its first tile")
        .defaults_to("1 us").zero_allowed(),
    fraction_param("gpu.tile.tile_load_dram_efficiency",
                   "DRAM efficiency of GEMM operand tile loads (short strided rows) relative to a sequential stream")
        .defaults_to("1"),
    count_param("gpu.tile.cluster_size", "CTAs of a cluster sharing one operand load by multicast (Hopper 2)")
        .defaults_to("1"),
});

}  // namespace

GpuChip GpuChip::from_config(const Config& c) {
  GpuChip g;
  g.name = c.text("name");
  g.core_model = c.text("gpu.core.model");
  g.sm_count = int(c.whole("gpu.sm_count"));
  g.clock_hz = c.number("gpu.sm.clock");
  for (DType t : {DType::fp32, DType::tf32, DType::bf16, DType::fp16, DType::fp8, DType::int8, DType::fp6, DType::fp4})
    g.flops_per_clock[int(t)] = c.number("gpu.sm.flops_per_clock." + std::string(dtype_name(t)));
  for (DType t : {DType::fp16, DType::fp8}) {  // FP16 accumulate: 0 = the FP32-accumulate rate
    double acc16 = c.number("gpu.sm.flops_per_clock." + std::string(dtype_name(t)) + "_acc16");
    g.flops_per_clock_acc16[int(t)] = acc16 > 0 ? acc16 : g.flops_per_clock[int(t)];
  }
  g.max_warps_per_sm = int(c.whole("gpu.sm.max_warps"));
  g.max_ctas_per_sm = int(c.whole("gpu.sm.max_ctas"));
  g.registers_per_sm = int(c.whole("gpu.sm.registers"));
  g.shared_memory_per_sm = c.number("gpu.sm.shared_memory");
  g.l1_bytes = c.number("gpu.sm.l1_size");
  g.sm_port_bytes_per_clock = c.number("gpu.sm.l2_port_bytes_per_clock");
  g.l2_bytes = c.number("memory.l2.size");
  g.l2_bandwidth = c.number("memory.l2.bandwidth");
  g.l2_latency = c.number("memory.l2.latency");
  g.hbm_bytes = c.number("memory.hbm.size");
  g.hbm_bandwidth = c.number("memory.hbm.bandwidth");
  g.hbm_latency = c.number("memory.hbm.latency");
  g.hbm_efficiency = c.number("memory.hbm.efficiency");
  g.launch_overhead = c.number("gpu.launch.overhead");
  g.cta_overhead = c.number("gpu.tile.cta_overhead");
  g.reduce_combine = c.number("gpu.tile.reduce_combine");
  g.tensor_efficiency = c.number("gpu.tile.tensor_efficiency");
  g.simt_efficiency = c.number("gpu.tile.simt_efficiency");
  g.cluster_size = int(c.whole("gpu.tile.cluster_size"));
  g.attention_efficiency = c.number("gpu.tile.attention_efficiency");
  g.tile_load_dram_efficiency = c.number("gpu.tile.tile_load_dram_efficiency");
  g.attention_overhead = c.number("gpu.tile.attention_overhead");
  g.layout = GpuMemoryLayout::from_config(c, g.sm_count);
  g.power = GpuPowerParams::from_config(c, g.flops_per_clock);
  g.vocabulary = GpuVocabulary::from_config(c);
  g.warp_size = int(c.whole("gpu.sm.warp_size"));
  g.gemm_library = GemmLibraryHabits::from_config(c);
  g.attention_library = AttentionHabits::from_config(c);
  g.quant_library = QuantHabits::from_config(c);
  g.elementwise_library = ElementwiseHabits::from_config(c);
  g.paths = SmInstructionPaths::from_config(c);
  g.block_scale = BlockScalePaths::from_config(c);
  return g;
}

}  // namespace hwsim
