#include "models/cpu/cpu_chip.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "sim/config/config.h"
#include "sim/config/param.h"
#include "sim/error.h"

namespace hwsim {
namespace {

// Bounds far above any CPU, keeping products inside doubles' exact integers.
constexpr double kMaxCores = 1 << 16, kMaxSimdBits = 4096, kMaxPipes = 16;

// Keys of a `kind = "cpu"` chip (power.tdp and power.idle: models/memory/main_memory_params.cpp).
// Sources of the values are in the chip files (configs/xeon_8480.toml, ...).
const ParamRegistration cpu_params({"cpu"}, {
    choice_param("cpu.isa", {"avx2", "avx512", "neon", "sve"}, "the SIMD instruction set the framework's kernels use "
                 "(what cpu.simd.width means)"),
    count_param("cpu.cores", "physical cores running the workload (one socket, or one cluster)").at_most(kMaxCores),
    integer_param("cpu.threads", "threads of the framework's pool (llama.cpp -t, OMP_NUM_THREADS); 0 = one per core; "
                "threads beyond the cores (SMT) add no FMA pipes").at_most(2 * kMaxCores).defaults_to("0")
        .zero_allowed(),
    quantity_param("cpu.clock", Dimension::frequency, "all-core clock under sustained vector load (AVX-512 and AMX "
                   "licence clocks on Intel)"),
    count_param("cpu.simd.width", "SIMD vector width in bits (AVX2 256, AVX-512 512, NEON 128, SVE: the "
                "implementation's vector length)").at_most(kMaxSimdBits),
    count_param("cpu.simd.fma_pipes", "vector FMA instructions issued per core cycle").at_most(kMaxPipes),
    real_param("cpu.simd.macs_per_lane.fp32", "fp32 multiply-adds per 32-bit lane per FMA instruction (1)")
        .defaults_to("1"),
    real_param("cpu.simd.macs_per_lane.fp16", "fp16 multiply-adds per 32-bit lane (NEON FMLA .8h: 2; x86 "
               "converts fp16 to fp32: 0 = unsupported, run as fp32)").defaults_to("0").zero_allowed(),
    real_param("cpu.simd.macs_per_lane.bf16", "bf16 multiply-adds per 32-bit lane (AVX512_BF16 VDPBF16PS, "
               "Arm BFDOT: 2; 0 = unsupported)").defaults_to("0").zero_allowed(),
    real_param("cpu.simd.macs_per_lane.int8", "int8 multiply-adds per 32-bit lane (AVX-VNNI/AVX512-VNNI "
               "VPDPBUSD, Arm SDOT: 4; Arm I8MM SMMLA: 8)").defaults_to("4").zero_allowed(),
    choice_param("cpu.matrix.kind", {"none", "amx", "sme"}, "matrix extension: Intel AMX tiles (one TMUL per "
                 "core), Apple/Arm SME (one unit per cluster), or none").defaults_to("none"),
    integer_param("cpu.matrix.units", "matrix units on the chip (AMX: the cores; SME: the clusters)")
        .at_most(kMaxCores).defaults_to("0").zero_allowed(),
    real_param("cpu.matrix.macs_per_cycle.bf16", "bf16 multiply-adds per matrix unit per core cycle (AMX: 1024, "
               "Intel's 2048 bf16 FLOP per cycle per core)").defaults_to("0").zero_allowed(),
    real_param("cpu.matrix.macs_per_cycle.fp16", "fp16 multiply-adds per matrix unit per cycle").defaults_to("0")
        .zero_allowed(),
    real_param("cpu.matrix.macs_per_cycle.fp32", "fp32 multiply-adds per matrix unit per cycle (SME FMOPA)")
        .defaults_to("0").zero_allowed(),
    real_param("cpu.matrix.macs_per_cycle.int8", "int8 multiply-adds per matrix unit per cycle (AMX TDPBUSD)")
        .defaults_to("0").zero_allowed(),
    fraction_param("cpu.matrix.efficiency", "fraction of the matrix unit's peak the framework's GEMM sustains "
                   "(tile loads, scale application between TMUL ops); estimate where no record fits it")
        .defaults_to("0.3"),
    count_param("cpu.matrix.min_rows", "fewest activation rows (GEMM M) for which the framework uses the matrix "
                "unit (a tile's rows: AMX 16); fewer run on the SIMD unit").at_most(kMaxCores).defaults_to("16"),
    quantity_param("cache.l1.size", Dimension::bytes, "L1 data cache per core (described; the microkernel's "
                   "L1 blocking is inside cpu.gemm.efficiency)"),
    quantity_param("cache.l2.size", Dimension::bytes, "L2 cache per core (the GEMM's A block lives here)"),
    quantity_param("cache.l3.size", Dimension::bytes, "shared last-level cache (the GEMM's B panel; activations "
                   "that fit stay here between ops); Apple: the cluster's shared L2 plus the SLC"),
    quantity_param("cache.l3.bandwidth", Dimension::bandwidth, "L3 bandwidth summed over the cores"),
    quantity_param("cache.l3.latency", Dimension::time, "L3 load-to-use latency").defaults_to("0 s").zero_allowed(),
    quantity_param("memory.dram.size", Dimension::bytes, "DRAM capacity (the model must fit)"),
    count_param("memory.dram.channels", "DRAM channels (64-bit DDR5 channels, or LPDDR5 16-bit channels x4)")
        .at_most(kMaxCores),
    quantity_param("memory.dram.channel_bandwidth", Dimension::bandwidth, "peak bytes/s of one channel (MT/s x 8 B)"),
    quantity_param("memory.dram.latency", Dimension::time, "DRAM load-to-use latency, idle").defaults_to("0 s")
        .zero_allowed(),
    fraction_param("memory.dram.efficiency", "fraction of the channels' peak all cores together sustain on a "
                   "streaming read (STREAM-like; fitted where the chip file says so)"),
    quantity_param("cpu.core.dram_bandwidth", Dimension::bandwidth, "DRAM bytes/s one core streams on its own "
                   "(outstanding misses x line / latency); caps what few threads reach"),
    count_param("cpu.cluster.cores", "cores sharing one port into the on-chip fabric (an Apple P-cluster: 4; an AMD "
                "CCD: its cores), for cpu.cluster.dram_bandwidth").at_most(kMaxCores).defaults_to("1"),
    quantity_param("cpu.cluster.dram_bandwidth", Dimension::bandwidth, "DRAM bytes/s through one cluster's port "
                   "(0 = no such limit)").defaults_to("0 B/s").zero_allowed(),
    fraction_param("cpu.gemm.efficiency", "fraction of the SIMD or matrix peak a cache-blocked GEMM's microkernel "
                   "sustains (oneDNN, OpenBLAS, llama.cpp's repacked kernels; fitted where the file says so)"),
    fraction_param("cpu.gemv.efficiency", "the same for a matrix-vector product (M below the microkernel's rows): "
                   "llama.cpp's quantised vec_dot, unpacking each weight for one use"),
    fraction_param("cpu.stream.efficiency", "fraction of the fp32 SIMD peak an elementwise pass sustains")
        .defaults_to("0.25"),
    count_param("cpu.gemm.kc", "K depth of the blocking's packed panels (OpenBLAS GEMM_Q, oneDNN K block)")
        .at_most(kMaxCores).defaults_to("256"),
    count_param("cpu.gemm.microkernel_rows", "M rows of the register microkernel: fewer rows run as GEMV")
        .at_most(kMaxCores).defaults_to("4"),
    count_param("cpu.quant.block", "weights per block of llama.cpp's Q4_0/Q8_0 formats (weights=int4 / int8)")
        .at_most(kMaxCores).defaults_to("32"),
    quantity_param("cpu.quant.scale_bytes", Dimension::bytes, "scale bytes per block (an fp16 d)").defaults_to("2 B")
        .zero_allowed(),
    quantity_param("cpu.op_overhead", Dimension::time, "per op: the thread pool's dispatch and barrier")
        .defaults_to("5 us").zero_allowed(),
    quantity_param("power.core_active", Dimension::power, "power of one busy core beyond idle (the package power "
                   "under an all-core vector load, less idle, over the cores)"),
    quantity_param("power.dram_energy_per_byte", Dimension::energy, "DRAM energy per byte read or written")
        .defaults_to("0 J").zero_allowed(),
});

void read_matrix(const Config& c, CpuChip& m) {
  m.matrix.kind = c.text("cpu.matrix.kind");
  m.matrix.units = c.number("cpu.matrix.units");
  for (DType t : {DType::bf16, DType::fp16, DType::fp32, DType::int8})
    m.matrix.macs_per_cycle[std::size_t(t)] = c.number(fmt::format("cpu.matrix.macs_per_cycle.{}", dtype_name(t)));
  m.matrix.min_rows = c.number("cpu.matrix.min_rows");
  m.matrix.efficiency = c.number("cpu.matrix.efficiency");
  bool rates = false;
  for (double r : m.matrix.macs_per_cycle) rates = rates || r > 0;
  if (m.matrix.kind != "none" && (m.matrix.units <= 0 || !rates))
    config_error(fmt::format("{}: cpu.matrix.kind: {} names a matrix unit '{}' but gives no cpu.matrix.units or no "
                             "cpu.matrix.macs_per_cycle.<dtype>; give both, or cpu.matrix.kind = \"none\"",
                             c.value("cpu.matrix.kind").origin, c.text("name"), m.matrix.kind));
}

void read_memory(const Config& c, CpuChip& m) {
  m.l1_bytes = c.number("cache.l1.size");
  m.l2_bytes = c.number("cache.l2.size");
  m.l3_bytes = c.number("cache.l3.size");
  m.l3_bandwidth = c.number("cache.l3.bandwidth");
  m.l3_latency = c.number("cache.l3.latency");
  m.dram_bytes = c.number("memory.dram.size");
  m.dram_channels = c.number("memory.dram.channels");
  m.dram_bandwidth = m.dram_channels * c.number("memory.dram.channel_bandwidth");
  m.dram_latency = c.number("memory.dram.latency");
  m.dram_efficiency = c.number("memory.dram.efficiency");
  m.core_bandwidth = c.number("cpu.core.dram_bandwidth");
  m.cluster_cores = c.number("cpu.cluster.cores");
  m.cluster_bandwidth = c.number("cpu.cluster.dram_bandwidth");
}

}  // namespace

double CpuChip::weight_bytes_per_element(DType weights, DType activations) const {
  bool weight_only = bytes_per_element(weights) < bytes_per_element(activations);
  if (weight_only && (weights == DType::int4 || weights == DType::int8))
    return bytes_per_element(weights) + quant_scale_bytes / quant_block;
  return bytes_per_element(weights);
}

double CpuChip::threads_dram_cap(double threads_used) const {
  double cap = threads_used * core_bandwidth;
  if (cluster_bandwidth > 0) {
    double clusters = std::ceil(cores / cluster_cores);
    cap = std::min(cap, std::min(clusters, threads_used) * cluster_bandwidth);
  }
  return cap;
}

double CpuChip::dram_rate(double threads_used) const {
  return std::min(threads_dram_cap(threads_used), dram_bandwidth * dram_efficiency);
}

CpuChip CpuChip::from_config(const Config& c) {
  CpuChip m;
  m.name = c.text("name");
  m.isa = c.text("cpu.isa");
  m.cores = c.number("cpu.cores");
  m.threads = c.number("cpu.threads") > 0 ? c.number("cpu.threads") : m.cores;
  if (m.threads > 2 * m.cores)
    config_error(fmt::format("{}: cpu.threads: {} threads on {} cores; give at most 2 x cpu.cores (SMT), or 0 for one "
                             "per core", c.value("cpu.threads").origin, m.threads, m.cores));
  m.clock_hz = c.number("cpu.clock");
  m.simd_bits = c.number("cpu.simd.width");
  m.fma_pipes = c.number("cpu.simd.fma_pipes");
  for (DType t : {DType::fp32, DType::fp16, DType::bf16, DType::int8})
    m.macs_per_lane[std::size_t(t)] = c.number(fmt::format("cpu.simd.macs_per_lane.{}", dtype_name(t)));
  read_matrix(c, m);
  read_memory(c, m);
  m.gemm_efficiency = c.number("cpu.gemm.efficiency");
  m.gemv_efficiency = c.number("cpu.gemv.efficiency");
  m.stream_efficiency = c.number("cpu.stream.efficiency");
  m.gemm_kc = c.number("cpu.gemm.kc");
  m.microkernel_rows = c.number("cpu.gemm.microkernel_rows");
  m.quant_block = c.number("cpu.quant.block");
  m.quant_scale_bytes = c.number("cpu.quant.scale_bytes");
  m.op_overhead = c.number("cpu.op_overhead");
  m.idle_watts = c.number("power.idle");
  m.core_watts = c.number("power.core_active");
  m.tdp_watts = c.number("power.tdp");
  m.dram_joules_per_byte = c.number("power.dram_energy_per_byte");
  double dram_watts = m.dram_joules_per_byte * m.dram_bandwidth;
  if (m.idle_watts + m.core_watts * m.cores + dram_watts > m.tdp_watts * (1 + 1e-9))
    config_error(fmt::format("{}: power.core_active: idle {} W + {} cores x {} W + DRAM at peak {:.3g} W exceeds "
                             "power.tdp {} W; give a per-core power that fits the limit",
                             c.value("power.core_active").origin, m.idle_watts, m.cores, m.core_watts, dram_watts,
                             m.tdp_watts));
  return m;
}

}  // namespace hwsim
