#include "models/gpu/warp/warp_params.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "models/gpu/warp/sector_cache.h"
#include "sim/config/config.h"
#include "sim/error.h"
#include "sim/config/param.h"

namespace hwsim::warp {
namespace {

// Bounds: a million cycles of latency, far above any real one (DRAM: ~800); per-SM structure
// counts (ways, banks, partitions) far above any GPU's, small enough that the structures they
// size stay small; line and sector sizes powers of two, as addresses split into them.
constexpr double kMaxCycles = 1e6, kMaxStructure = 1024, kMaxLine = 4096;

ParamDecl cycles(std::string key, std::string dflt, std::string what) {
  return integer_param(std::move(key), std::move(what) + " (cycles)").defaults_to(std::move(dflt)).at_most(kMaxCycles);
}
ParamDecl structure(std::string key, std::string what, std::string dflt) {
  return count_param(std::move(key), std::move(what)).defaults_to(std::move(dflt)).at_most(kMaxStructure);
}

const ParamRegistration warp_params({"gpu"}, {
    choice_param("gpu.warp.scheduler", {"gto", "lrr"}, "warp scheduler: greedy-then-oldest or loose round-robin")
        .defaults_to("gto"),
    structure("gpu.warp.sub_partitions", "SM sub-partitions, each with a scheduler issuing one instruction per cycle", "4"),
    cycles("gpu.warp.latency.fp32", "4", "FP32 result latency"),
    cycles("gpu.warp.latency.int", "4", "integer result latency"),
    cycles("gpu.warp.latency.sfu", "18", "SFU (ex2, rcp, sqrt, div) result latency"),
    cycles("gpu.warp.latency.tensor", "32", "tensor-core mma result latency"),
    cycles("gpu.warp.latency.shfl", "6", "warp shuffle result latency"),
    cycles("gpu.warp.interval.fp32", "1", "FP32 initiation interval per sub-partition"),
    cycles("gpu.warp.interval.int", "2", "integer initiation interval per sub-partition"),
    cycles("gpu.warp.interval.sfu", "8", "SFU initiation interval per sub-partition"),
    cycles("gpu.warp.interval.tensor", "4", "tensor-core initiation interval per sub-partition (m16n8k16)"),
    cycles("gpu.warp.interval.lsu", "1", "LSU/MIO issue interval per sub-partition"),
    real_param("gpu.warp.tensor.mma_sync_share",
               "fraction of the tensor pipe's rate (gpu.warp.interval.tensor, the chip's dense peak) that warp-level "
               "mma.sync instructions issue at; 0: the chip's gpu.sm.mma_sync_fraction (Hopper: mma.sync reaches only "
               "part of the warpgroup rate)")
        .defaults_to("0").zero_allowed().at_most(1),
    real_param("gpu.warp.tensor.wgmma_share",
               "fraction of the tensor pipe's rate (gpu.warp.interval.tensor, the chip's dense peak) that "
               "wgmma.mma_async issues at")
        .defaults_to("1").at_most(1),
    real_param("gpu.warp.rf3_extra",
                 "average extra issue cycles of an ALU instruction that reads three distinct registers (register-bank conflicts the reuse cache does not hide)")
        .defaults_to("0.5").zero_allowed(),
    quantity_param("gpu.warp.event_timed_launch", Dimension::time,
                   "launch overhead of a single launch timed between two cudaEvents (microbench.cu); 0: use gpu.launch.overhead")
        .defaults_to("0 s").zero_allowed(),
    quantity_param("gpu.warp.graph_launch", Dimension::time,
                   "time per launch of a kernel replayed in a CUDA graph, beyond its execution (classroom.cu); 0: use gpu.launch.overhead")
        .defaults_to("0 s").zero_allowed(),
    choice_param("gpu.warp.dram_model", {"builtin", "tlm"},
                 "the memory below the L2: the built-in DRAM model, or tlm: a TLM-2.0 initiator socket (blocking transport, "
                 "loosely timed) to an external SystemC DRAM model an embedding program binds (examples/warp_tlm_dram.cpp)")
        .defaults_to("builtin"),
    real_param("gpu.warp.dram_turnaround",
                   "fraction of DRAM bandwidth lost to read/write bus turnarounds at a 50/50 read/write mix")
        .defaults_to("0").zero_allowed(),
    integer_param("gpu.warp.hbm_latency_spread", "DRAM access latency spread: uniform in the mean +- this (cycles)")
        .defaults_to("0").at_most(kMaxCycles),
    real_param("gpu.warp.dram_activation", "extra DRAM access times a row activation costs (0: rows not modelled)")
        .defaults_to("0").zero_allowed(),
    count_param("gpu.warp.dram_row_bytes", "bytes of address space per DRAM row (page)").defaults_to("1024")
        .at_most(1 << 30),
    count_param("gpu.warp.dram_banks", "DRAM banks in the device (open-row tracking)").defaults_to("2560").at_most(1e6),
    bool_param("gpu.warp.l2_merge",
               "a request for an L2 sector that an earlier request (of any SM) has in flight, sent less than an L2 round "
               "trip (memory.l2.latency) before, merges with it and takes no L2 bandwidth of its own (Nsight Compute on "
               "an H200: Triton's 2048^3 matmul requests 192 MB of tiles, the L2 slices see 89 MB of reads: "
               "data/measurements/h200_matmul_ncu.txt); off: every request takes its bandwidth")
        .defaults_to("false"),
    structure("gpu.warp.l2_partitions", "L2 partitions: each SM caches what it reads in its near one", "1"),
    real_param("gpu.warp.write_drain", "extra DRAM read latency at full write utilisation, scaled by the write utilisation (cycles)")
        .defaults_to("0").zero_allowed(),
    real_param("gpu.warp.dram_queue", "DRAM read queueing delay scale: + this · u/(1-u) cycles at DRAM utilisation u (0: off)")
        .defaults_to("0").zero_allowed(),
    real_param("gpu.warp.dram_queue_max_util", "cap on the DRAM utilisation used for the queueing delay")
        .defaults_to("0.85"),
    real_param("gpu.warp.cta_dispatch", "cycles between CTA starts of the whole GPU (CTA dispatcher throughput)")
        .defaults_to("0").zero_allowed(),
    cycles("gpu.warp.branch", "20", "extra delay after a branch before the warp issues again"),
    cycles("gpu.warp.barrier", "8", "from the last warp's arrival at bar.sync to the release"),
    real_param("gpu.warp.atomic_line",
               "cycles the L2 takes per atomic operation on one line; atomics on a line are performed one after another (0: not serialised)")
        .defaults_to("3.4").zero_allowed().at_most(kMaxCycles),
    real_param("gpu.warp.atomic_word",
               "cycles each further distinct address of an atomic request adds on its line (the line performs a request's words "
               "together; 0: no cost)")
        .defaults_to("0").zero_allowed().at_most(kMaxCycles),
    real_param("gpu.warp.atomic_new_words",
               "cycles at least that an atomic request takes on a line whose previous request touched other words (0: none)")
        .defaults_to("0").zero_allowed().at_most(kMaxCycles),
    real_param("gpu.warp.atomic_queue",
               "atomic operations one L2 line's queue holds; beyond that the SM holds a warp's atomic back (0: unbounded)")
        .defaults_to("300").zero_allowed().at_most(1e9),
    structure("gpu.warp.shared.banks", "shared-memory banks", "32"),
    structure("gpu.warp.shared.bank_bytes", "bytes per bank per cycle", "4"),
    cycles("gpu.warp.shared.latency", "23", "shared-memory load latency without conflicts"),
    cycles("gpu.warp.shared.replay", "2", "extra latency per extra conflict way (replay)"),
    cycles("gpu.warp.mio_queue", "16", "shared-memory pipe backlog before issue stalls (MIO throttle)"),
    cycles("gpu.warp.cta_launch", "200", "from a CTA slot freeing to the next CTA's first issue"),
    real_param("gpu.warp.cta_launch_per_warp",
               "cycles a CTA slot's turnover (gpu.warp.cta_launch) grows by per warp of the CTA (the SM frees and sets up each warp)")
        .defaults_to("4.8").zero_allowed().at_most(kMaxCycles),
    integer_param("gpu.warp.register_granule", "registers allocated per warp in units of").defaults_to("256")
        .at_most(65536),
    quantity_param("gpu.warp.shared_reserved_per_cta", Dimension::bytes, "shared memory the driver reserves per CTA")
        .defaults_to("1 KiB").zero_allowed().at_most(1 << 24),
    cycles("memory.l1.latency", "33", "L1 hit load-to-use latency"),
    structure("memory.l1.ways", "L1 associativity", "4"),
    structure("memory.l1.lines_per_cycle", "128-byte lines the L1 tag stage handles per cycle", "1"),
    cycles("memory.l1.lsu_queue", "32", "L1 tag-stage backlog before global accesses stall (LG throttle)"),
    count_param("memory.l1.line_bytes", "cache line size in bytes").defaults_to("128").at_least(4).at_most(kMaxLine).pow2(),
    count_param("memory.l1.sector_bytes", "sector size in bytes (unit of a request)").defaults_to("32").at_least(4)
        .at_most(kMaxLine).pow2(),
    structure("gpu.warp.l2_ways", "L2 associativity in the warp model", "16"),
    count_param("gpu.warp.dram_access_bytes", "bytes fetched from device memory per L2 miss").defaults_to("64")
        .at_most(kMaxLine),
});

}  // namespace

WarpParams WarpParams::from_config(const Config& c) {
  WarpParams p;
  p.chip = GpuChip::from_config(c);
  // The SIMT machinery (lane masks, the reconvergence stack, shuffles, votes, the bank map) is
  // 32 lanes wide; a CDNA wavefront of 64 would run as two warps and time wrong: refused.
  if (p.chip.warp_size != 32)
    config_error(fmt::format("{}: the warp model runs 32-lane warps, and gpu.sm.warp_size is {} ({}'s wavefronts); "
                             "64-wide wavefronts are not modelled yet: use a chip with 32-lane warps (e.g. --chip h100)",
                             c.chip_path(), p.chip.warp_size, c.text("name")));
  p.gto = c.text("gpu.warp.scheduler") == "gto";
  p.sub_partitions = int(c.whole("gpu.warp.sub_partitions"));
  auto w = [&](const char* k) { return int(c.whole(k)); };
  p.latency[int(Pipe::fp32)] = w("gpu.warp.latency.fp32");
  p.latency[int(Pipe::int_)] = w("gpu.warp.latency.int");
  p.latency[int(Pipe::sfu)] = w("gpu.warp.latency.sfu");
  p.latency[int(Pipe::tensor)] = w("gpu.warp.latency.tensor");
  p.latency[int(Pipe::lsu)] = w("gpu.warp.latency.shfl");
  p.latency[int(Pipe::ctrl)] = 1;
  p.interval[int(Pipe::fp32)] = w("gpu.warp.interval.fp32");
  p.interval[int(Pipe::int_)] = w("gpu.warp.interval.int");
  p.interval[int(Pipe::sfu)] = w("gpu.warp.interval.sfu");
  p.interval[int(Pipe::tensor)] = w("gpu.warp.interval.tensor");
  p.interval[int(Pipe::lsu)] = w("gpu.warp.interval.lsu");
  p.interval[int(Pipe::ctrl)] = 1;
  for (auto& x : p.interval) x = std::max(x, 1);
  p.mma_sync_share = c.number("gpu.warp.tensor.mma_sync_share");
  if (p.mma_sync_share <= 0) p.mma_sync_share = p.chip.paths.mma_sync_fraction;
  p.mma_sync_share = std::clamp(p.mma_sync_share, 0.01, 1.0);
  p.wgmma_share = std::clamp(c.number("gpu.warp.tensor.wgmma_share"), 0.01, 1.0);
  {  // element types' rates relative to f16 (gpu.sm.flops_per_clock); a type the chip lacks runs at the f16 rate
    const double f16 = p.chip.flops_per_clock[int(DType::fp16)];
    const DType by_elem[5] = {DType::fp16, DType::bf16, DType::tf32, DType::int8, DType::int8};
    for (int e = 0; e < 5; ++e) {
      const double r = p.chip.flops_per_clock[int(by_elem[e])];
      p.tensor_dtype_factor[std::size_t(e)] = f16 > 0 && r > 0 ? f16 / r : 1.0;
    }
  }
  p.rf3_extra = c.number("gpu.warp.rf3_extra");
  p.l2_merge = c.flag("gpu.warp.l2_merge");
  p.event_timed_launch = c.number("gpu.warp.event_timed_launch");
  p.graph_launch = c.number("gpu.warp.graph_launch");
  p.dram_model = c.text("gpu.warp.dram_model") == "tlm" ? DramModelKind::tlm : DramModelKind::builtin;
  p.dram_turnaround = c.number("gpu.warp.dram_turnaround");
  p.dram_activation = c.number("gpu.warp.dram_activation");
  p.dram_row_bytes = w("gpu.warp.dram_row_bytes");
  p.dram_banks = w("gpu.warp.dram_banks");
  p.l2_partitions = w("gpu.warp.l2_partitions");
  p.write_drain_cycles = c.number("gpu.warp.write_drain");
  p.dram_queue_cycles = c.number("gpu.warp.dram_queue");
  p.dram_queue_max_util = std::clamp(c.number("gpu.warp.dram_queue_max_util"), 0.0, 0.99);
  p.branch_cycles = w("gpu.warp.branch");
  p.barrier_cycles = w("gpu.warp.barrier");
  p.atomic_line_cycles = c.number("gpu.warp.atomic_line");
  p.atomic_queue = c.number("gpu.warp.atomic_queue");
  p.atomic_word_cycles = c.number("gpu.warp.atomic_word");
  p.atomic_new_words_cycles = c.number("gpu.warp.atomic_new_words");
  p.banks = w("gpu.warp.shared.banks");
  p.bank_bytes = w("gpu.warp.shared.bank_bytes");
  p.shared_latency = w("gpu.warp.shared.latency");
  p.replay_cycles = w("gpu.warp.shared.replay");
  p.mio_queue = w("gpu.warp.mio_queue");
  p.cta_launch_cycles = w("gpu.warp.cta_launch");
  p.cta_launch_per_warp = c.number("gpu.warp.cta_launch_per_warp");
  p.cta_dispatch_cycles = c.number("gpu.warp.cta_dispatch");
  p.registers_granule = std::max(1, w("gpu.warp.register_granule"));
  p.shared_reserved_per_cta = int(c.number("gpu.warp.shared_reserved_per_cta"));
  p.l1_latency = w("memory.l1.latency");
  p.l1_ways = w("memory.l1.ways");
  p.l1_lines_per_cycle = w("memory.l1.lines_per_cycle");
  p.lsu_queue = w("memory.l1.lsu_queue");
  p.line_bytes = w("memory.l1.line_bytes");
  p.sector_bytes = w("memory.l1.sector_bytes");
  if (p.sector_bytes > p.line_bytes || p.line_bytes / p.sector_bytes > SectorCache::kMaxSectors)
    config_error(fmt::format("{}: memory.l1.sector_bytes: {} B sectors in {} B lines (memory.l1.line_bytes): a line holds "
                             "1 to {} sectors", c.value("memory.l1.sector_bytes").origin, p.sector_bytes, p.line_bytes,
                             SectorCache::kMaxSectors));
  p.l2_ways = w("gpu.warp.l2_ways");
  p.dram_access_bytes = w("gpu.warp.dram_access_bytes");
  double clk = p.chip.clock_hz;
  p.l2_latency = int(std::lround(p.chip.l2_latency * clk));
  p.hbm_latency = int(std::lround(p.chip.hbm_latency * clk));
  p.hbm_latency_spread = std::clamp(w("gpu.warp.hbm_latency_spread"), 0, p.hbm_latency);
  p.l2_bytes_per_cycle = p.chip.l2_bandwidth / clk;
  p.hbm_bytes_per_cycle = p.chip.usable_hbm_bandwidth() / clk;
  p.port_bytes_per_cycle = p.chip.sm_port_bytes_per_clock;
  return p;
}

}  // namespace hwsim::warp
