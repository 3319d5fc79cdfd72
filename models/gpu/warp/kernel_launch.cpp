#include "models/gpu/warp/kernel_launch.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "models/gpu/warp/footprint_count.h"
#include "models/gpu/warp/sm_core.h"
#include "models/gpu/warp/wake_queue.h"
#include "models/gpu/warp/warp_trace.h"
#include "sim/error.h"
#include "sim/memory_budget.h"

namespace hwsim::warp {

Occupancy compute_occupancy(const WarpParams& p, const Program& prog, std::int64_t block) {
  Occupancy o;
  const GpuChip& c = p.chip;
  o.threads_per_cta = int(block);
  o.warps_per_cta = int((block + 31) / 32);
  o.registers_per_thread = std::max(16, (prog.registers_per_thread() + 7) / 8 * 8);  // allocation unit of 8
  o.shared_per_cta = prog.shared_bytes + std::uint64_t(p.shared_reserved_per_cta);
  o.limit_warps = c.max_warps_per_sm / o.warps_per_cta;
  o.limit_ctas = c.max_ctas_per_sm;
  int regs_per_warp = (o.registers_per_thread * 32 + p.registers_granule - 1) / p.registers_granule * p.registers_granule;
  o.limit_registers = c.registers_per_sm / (regs_per_warp * o.warps_per_cta);
  // the driver's reserve counts even for a block without shared arrays; a block of no shared
  // memory at all (a reserve of 0) is not limited by it
  const bool uses_shared = o.shared_per_cta > 0;
  o.limit_shared = uses_shared ? int(std::min(double(std::numeric_limits<int>::max()), c.shared_memory_per_sm / double(o.shared_per_cta)))
                               : o.limit_ctas;
  o.ctas_per_sm = std::min({o.limit_warps, o.limit_ctas, o.limit_registers, o.limit_shared});
  for (auto [limit, name] : {std::pair{o.limit_warps, "warps"}, {o.limit_registers, "registers"},
                             {o.limit_shared, "shared memory"}, {o.limit_ctas, "blocks"}})
    if (limit == o.ctas_per_sm && (uses_shared || std::string(name) != "shared memory"))
      o.limiter += (o.limiter.empty() ? "" : " and ") + std::string(name);
  o.theoretical = double(o.ctas_per_sm * o.warps_per_cta) / c.max_warps_per_sm;
  return o;
}

namespace {

// LaunchOptions::warm_l2: the buffers in declaration order, only their last `l2_bytes` (more
// would be evicted by the LRU anyway).
// The buffers' bytes, all of them.
std::uint64_t buffer_bytes(const GlobalMemory& memory) {
  std::uint64_t total = 0;
  for (const auto& b : memory.buffers()) total += b->bytes();
  return total;
}

void warm_buffers(MemorySystem& mem, const GlobalMemory& memory, std::uint64_t l2_bytes) {
  const std::uint64_t total = buffer_bytes(memory);
  std::uint64_t skip = total > l2_bytes ? total - l2_bytes : 0;
  for (const auto& b : memory.buffers()) {
    std::uint64_t drop = std::min(skip, b->bytes());
    skip -= drop;
    if (drop < b->bytes()) mem.warm_l2(b->base + drop, b->bytes() - drop);
  }
}

// The launch and the chip figures a report of the run needs (KernelRun's copies of them).
void describe_launch(KernelRun& run, const WarpParams& p, const LaunchArgs& args) {
  run.grid = std::uint64_t(args.grid);
  run.block = std::uint64_t(args.block);
  auto shape = [](const std::int64_t* d) {
    if (d[0] == 0 || (d[1] == 1 && d[2] == 1)) return std::string();
    return d[2] == 1 ? fmt::format("{}x{}", d[0], d[1]) : fmt::format("{}x{}x{}", d[0], d[1], d[2]);
  };
  run.grid_shape = shape(args.grid_dim);
  run.block_shape = shape(args.block_dim);
  run.sm_count = p.chip.sm_count;
  run.clock_hz = p.chip.clock_hz;
  run.launch_overhead = p.chip.launch_overhead;
  run.max_warps_per_sm = p.chip.max_warps_per_sm;
  run.banks = p.banks;
  run.bank_bytes = p.bank_bytes;
  run.l1_latency = p.l1_latency;
  run.l2_latency = p.l2_latency;
  run.hbm_latency = p.hbm_latency;
  run.chip = p.chip;
  run.l1_bytes_per_cycle = double(p.l1_lines_per_cycle) * p.line_bytes;
  run.sector_bytes = p.sector_bytes;
  run.issue_width = p.sub_partitions;
}


// One launch of a grid (or of a subset's share of it) on an SM set: what run_grid needs.
struct GridPlan {
  const WarpParams* p = nullptr;
  const Program* prog = nullptr;
  const ExecContext* ctx = nullptr;
  const Occupancy* occ = nullptr;
  const std::vector<std::uint64_t>* values = nullptr;
  int sms = 0;                  // SMs simulated
  std::uint64_t ctas = 0;       // blocks simulated
  std::uint64_t grid = 0;       // blocks of the launch
  double share = 1;             // ctas' share of the grid's SMs (1: all of them)
  std::int64_t horizon = 0;     // --max-cycles
  bool horizon_given = false;
  const LaunchProgress* progress = nullptr;  // told as blocks retire (the measured launch's)
};

// The k-th block a plan runs: CTAs of a subset are spread over the grid like the full launch
// would place them (every k-th block), so data-dependent kernels see representative inputs.
std::uint64_t block_at(const GridPlan& g, std::uint64_t k) {
  return g.ctas == g.grid ? k : std::min<std::uint64_t>(g.grid - 1, std::uint64_t(double(k) / g.share));
}

// Runs plan.ctas blocks on plan.sms SmCores over `mem`, recording into `st`: the CTA dispatcher
// and the event loop. Returns the cycle the kernel is complete (its last block retired, its last
// atomic performed).
std::int64_t run_grid(const GridPlan& g, MemorySystem& mem, KernelStats& st) {
  const WarpParams& p = *g.p;
  const Program& prog = *g.prog;
  const std::uint64_t ctas = g.ctas;
  std::vector<std::unique_ptr<SmCore>> cores;
  WakeQueue wakes(g.sms);
  std::uint64_t next_cta = 0;
  auto cta_index = [&](std::uint64_t k) { return block_at(g, k); };
  auto wake = [&](int sm, std::int64_t t) { wakes.wake(sm, t); };
  // the GPU's CTA dispatcher starts one block every cta_dispatch cycles (a subset gets its share
  // of the dispatch rate)
  double dispatch_free = 0;
  auto dispatch = [&](std::int64_t earliest) {
    double at = std::max(double(earliest), dispatch_free);
    dispatch_free = at + p.cta_dispatch_cycles / g.share;
    return std::int64_t(std::ceil(at));
  };
  // a freed CTA slot takes the next block after cta_launch plus cta_launch_per_warp per warp of
  // the block (the first blocks start with the launch: an empty kernel's launch does not grow with
  // its block size)
  const auto relaunch = std::int64_t(std::llround(p.cta_launch_cycles + p.cta_launch_per_warp * g.occ->warps_per_cta));
  std::int64_t last_retired = 0;  // the cycle the last block freed its slot (its stores acknowledged)
  std::uint64_t retired = 0;
  for (int i = 0; i < g.sms; ++i) {
    cores.push_back(std::make_unique<SmCore>(i, p, prog, *g.ctx, mem, st, g.occ->ctas_per_sm, *g.values));
    cores.back()->on_cta_done = [&](int sm, std::int64_t t) {
      last_retired = std::max(last_retired, t);
      if (g.progress && *g.progress) (*g.progress)(++retired, ctas);
      if (next_cta < ctas) {
        std::int64_t at = dispatch(t + relaunch);
        cores[std::size_t(sm)]->launch(cta_index(next_cta++), at);
        wake(sm, at);
      }
    };
  }
  for (int round = 0; round < g.occ->ctas_per_sm && next_cta < ctas; ++round)
    for (int i = 0; i < g.sms && next_cta < ctas; ++i) {
      std::int64_t at = dispatch(0);
      cores[std::size_t(i)]->launch(cta_index(next_cta++), at);
      wake(i, at);
    }
  std::int64_t last = 0;
  std::int64_t t = 0;
  int sm = 0;
  while (wakes.pop(t, sm)) {
    if (t > g.horizon)
      workload_error(fmt::format("kernel {}: stopped at --max-cycles {}{}: {} of {} blocks done (a runaway loop?)", prog.name,
                                 g.horizon, g.horizon_given ? "" : " (the default)", st.ctas_simulated, ctas));
    last = std::max(last, t);
    std::int64_t nt = cores[std::size_t(sm)]->step(t);
    if (nt < SmCore::kNever) wake(sm, std::max(nt, t + 1));
  }
  for (auto& c : cores) {
    if (c->resident_warps() > 0)
      workload_error(fmt::format("kernel {}: barrier deadlock: warps wait at bar.sync that the rest of their block never reaches", prog.name));
    c->close_occupancy(last + 1);
  }
  // the kernel is complete once its blocks have retired (their stores acknowledged) and its
  // atomics are performed at L2 (the last may still be queued on its line after its warp exited)
  return std::max({last + 1, last_retired, std::int64_t(std::ceil(mem.atomics_done()))});
}

// A run of the grid whose timing is not kept (a previous launch, a footprint count): the
// buffers are back to their initial contents after it.
void run_unrecorded(const GridPlan& g, MemorySystem& mem, GlobalMemory& memory) {
  KernelStats scratch;
  scratch.pcs.assign(g.prog->code.size(), PcStats{});
  run_grid(g, mem, scratch);
  memory.discard_writes();
}

// The functional footprint count's view of a plan, and the limits past which its timed run
// stops at the horizon.
FootprintLaunch footprint_launch(const GridPlan& g) {
  FootprintLaunch l;
  l.ctx = *g.ctx;
  l.values = g.values;
  l.line_bytes = g.p->line_bytes;
  l.sector_bytes = g.p->sector_bytes;
  const double cycles = double(g.horizon) + 1.0, cap = 1e18;
  l.max_warp_instructions = std::uint64_t(std::min(cap, cycles));
  l.max_instructions = std::uint64_t(std::min(cap, cycles * double(g.sms) * double(std::max(1, g.p->sub_partitions))));
  return l;
}

// The memory system the measured launch runs on (LaunchOptions::sample_sms and warm_l2).
std::unique_ptr<MemorySystem> prepare_memory(const GridPlan& g, GlobalMemory& memory, std::uint64_t l1_data, bool warm) {
  const WarpParams& p = *g.p;
  const double total = double(buffer_bytes(memory));
  // all the buffers fit one L2 partition (an SM's near L2): every line stays wherever it is
  const bool fits = total <= p.chip.l2_bytes / std::max(1, p.l2_partitions);
  auto mem = std::make_unique<MemorySystem>(p, g.sms, l1_data, g.share);
  // A subset of the SMs meets the L2 pressure of the whole grid: a functional pass counts the
  // lines its blocks touch (footprint_count.h). One that several of them touch (a matmul's B) is
  // taken to be shared by the whole grid; one of a single block (a softmax row) to stand for
  // 1/share such lines of the blocks not simulated, as far as the buffers hold that many (a line
  // a few blocks share may have been touched by one simulated block alone):
  // MemorySystem::weigh_own_lines.
  std::shared_ptr<Footprint> footprint;
  double own_weight = 1;
  if (g.share < 1 && !fits) {
    require_memory(total / std::max(1, p.line_bytes) * Footprint::kBytesPerLine,
                   fmt::format("the warp model's count of the lines a --sample-sms subset touches ({} B of buffers)", total));
    footprint = std::make_shared<Footprint>();
    const bool counted = count_footprint(footprint_launch(g), g.ctas, [&](std::uint64_t k) { return block_at(g, k); }, *footprint);
    memory.discard_writes();
    if (!counted) {  // a run only the timed model reports as it must: it counts, and reports
      *footprint = Footprint{};
      MemorySystem counting(p, g.sms, l1_data, g.share);
      counting.count_footprint(footprint.get());
      run_unrecorded(g, counting, memory);
    }
    const double shared = double(footprint->shared), own = double(footprint->owner.size()) - shared;
    const double whole_grid = std::min(total / std::max(1, p.line_bytes), shared + own / g.share);
    if (own > 0) own_weight = std::max(1.0, (whole_grid - shared) / own);
    mem->weigh_own_lines(footprint, own_weight);
  }
  if (!warm) return mem;
  if (fits) {
    warm_buffers(*mem, memory, std::uint64_t(p.chip.l2_bytes));
    return mem;
  }
  // which lines the previous launch left, and in which partition, depends on the order it
  // touched them (and a subset's lines are known only once it ran): that launch is simulated
  MemorySystem previous(p, g.sms, l1_data, g.share);
  if (footprint) previous.weigh_own_lines(footprint, own_weight);
  run_unrecorded(g, previous, memory);
  mem->take_l2_from(previous);
  return mem;
}

// The launch's shape against CUDA's limits: threads per block, block and grid extents, and the
// dims' products against the totals.
void check_launch(const Program& prog, const LaunchArgs& args) {
  if (args.grid < 1 || args.block < 1) workload_error("--grid and --block must be at least 1");
  if (args.block > 1024) workload_error(fmt::format("kernel {}: --block {} exceeds 1024 threads per block", prog.name, args.block));
  if (args.block_dim[0] > 0 && args.block_dim[0] * args.block_dim[1] * args.block_dim[2] != args.block)
    workload_error(fmt::format("kernel {}: --block's dims do not multiply to {} threads", prog.name, args.block));
  if (args.grid_dim[0] > 0 && args.grid_dim[0] * args.grid_dim[1] * args.grid_dim[2] != args.grid)
    workload_error(fmt::format("kernel {}: --grid's dims do not multiply to {} blocks", prog.name, args.grid));
  if (args.block_dim[2] > 64) workload_error(fmt::format("kernel {}: a block's z extent is at most 64 (--block ...,{})", prog.name, args.block_dim[2]));
  if (args.grid_dim[1] > 65535 || args.grid_dim[2] > 65535)
    workload_error(fmt::format("kernel {}: a grid's y and z extents are at most 65535", prog.name));
  if (args.grid_dim[0] > 2147483647) workload_error(fmt::format("kernel {}: a grid's x extent is at most 2^31 - 1", prog.name));
  const int* r = prog.reqntid;
  if (r[0] > 0 && (args.block_dim[0] > 0 ? args.block_dim[0] != r[0] || args.block_dim[1] != r[1] || args.block_dim[2] != r[2]
                                         : args.block != std::int64_t(r[0]) * r[1] * r[2]))
    workload_error(fmt::format("kernel {}: its .reqntid is {},{},{}: launch it with --block {},{},{}", prog.name, r[0], r[1], r[2], r[0], r[1], r[2]));
  if (prog.maxntid > 0 && args.block > prog.maxntid)
    workload_error(fmt::format("kernel {}: --block {} exceeds its .maxntid of {} threads", prog.name, args.block, prog.maxntid));
}

// A PTX kernel's `.extern .shared` array gets the launch's dynamic bytes, after its static arrays.
void add_dynamic_shared(Program& prog, std::uint64_t bytes) {
  std::uint64_t end = prog.shared_bytes;
  for (auto& s : prog.shared)
    if (s.dynamic) s.bytes = bytes, end = std::max(end, s.offset + bytes);
  if (std::none_of(prog.shared.begin(), prog.shared.end(), [](const SharedDecl& s) { return s.dynamic; })) end += bytes;
  prog.shared_bytes = end;
}

}  // namespace

std::unique_ptr<KernelRun> simulate_kernel(const WarpParams& p, Program program, const LaunchOptions& opt) {
  auto t0 = std::chrono::steady_clock::now();
  auto run = std::make_unique<KernelRun>();
  run->program = std::move(program);
  const auto& args = opt.args;
  add_dynamic_shared(run->program, args.dynamic_shared);
  const Program& prog = run->program;
  check_launch(prog, args);
  describe_launch(*run, p, args);
  auto values = bind_args(prog, args, run->memory);
  Occupancy occ = compute_occupancy(p, prog, args.block);
  run->occupancy = occ;
  if (occ.ctas_per_sm < 1)
    workload_error(fmt::format("kernel {}: a block of {} threads does not fit on an SM ({} registers/thread, {} B shared; "
                               "limits: warps {}, registers {}, shared memory {})", prog.name, args.block,
                               occ.registers_per_thread, occ.shared_per_cta, occ.limit_warps, occ.limit_registers, occ.limit_shared));
  // subset: simulate `sms` SMs and the CTAs the hardware would give them; a subset that holds
  // the whole grid is no subset (all of the L2 and its bandwidth are the grid's)
  GridPlan g;
  g.sms = p.chip.sm_count;
  g.ctas = g.grid = run->grid;
  if (opt.sample_sms > 0 && opt.sample_sms < g.sms) {
    g.ctas = std::max<std::uint64_t>(1, std::uint64_t(std::llround(double(run->grid) * opt.sample_sms / g.sms)));
    if (g.ctas < g.grid) g.share = double(opt.sample_sms) / g.sms, g.sms = opt.sample_sms;
  }
  g.sms = int(std::min<std::uint64_t>(std::uint64_t(g.sms), g.ctas));  // an SM without work is not simulated
  if (g.ctas > kMaxSimulatedCtas)
    workload_error(fmt::format("kernel {}: a grid of {} blocks is more than the {} the warp model simulates (--sample-sms N "
                               "simulates N SMs and their share of the grid)", prog.name, g.ctas, kMaxSimulatedCtas));
  g.horizon = opt.max_cycles > 0 ? opt.max_cycles : kDefaultMaxCycles;
  g.horizon_given = opt.max_cycles > 0;
  KernelStats& st = run->stats;
  st.pcs.assign(prog.code.size(), PcStats{});
  st.trace = opt.trace;
  st.sms_simulated = g.sms;
  std::uint64_t l1_carve = std::uint64_t(occ.ctas_per_sm) * occ.shared_per_cta;
  std::uint64_t l1_data = p.chip.l1_bytes > double(l1_carve) ? std::uint64_t(p.chip.l1_bytes) - l1_carve : 0;
  ExecContext ctx;
  ctx.program = &prog;
  ctx.memory = &run->memory;
  ctx.ntid = std::uint32_t(args.block);
  ctx.nctaid = run->grid;
  for (int k = 0; k < 3; ++k) {
    ctx.block_dim[k] = std::uint32_t(args.block_dim[k]);
    ctx.grid_dim[k] = std::uint32_t(args.grid_dim[k]);
  }
  const std::vector<LaneFn> lane_fns = decode_lane_functions(prog);
  ctx.lane_fns = lane_fns.data();
  g.p = &p, g.prog = &prog, g.ctx = &ctx, g.occ = &occ, g.values = &values;
  auto mem = prepare_memory(g, run->memory, l1_data, opt.warm_l2);
  mem->use_dram(opt.dram);
  g.progress = &opt.progress;
  run->buffer_bytes = double(buffer_bytes(run->memory));
  run->buffers_fit_l2 = run->buffer_bytes <= p.chip.l2_bytes / std::max(1, p.l2_partitions);
  st.cycles = run_grid(g, *mem, st);
  if (st.trace) trace_finish(st);
  run->memory_stats = mem->stats();
  run->dram_bytes = mem->dram_bytes();
  run->seconds = double(st.cycles) / p.chip.clock_hz + p.chip.launch_overhead;
  run->host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return run;
}

}  // namespace hwsim::warp
