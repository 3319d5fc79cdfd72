// Measurement kinds the warp model reproduces (shared/calibration/README.md, methods/microbench.cu):
// each record becomes a run of a shipped kernel on the warp model. Full grids are large (the
// bank-conflict grid is 34.6 M warp accesses), so the runs simulate a representative subset:
// `sample_sms` SMs with the blocks the hardware would give them and that share of the L2 and
// DRAM bandwidth (MemorySystem); per-SM work and per-thread iteration counts are the measured
// ones, so the predicted kernel time is the subset's time. A kernel with atomics runs on all SMs:
// a subset's blocks lie far apart in the grid and never share the L2 lines whose atomic queues
// neighbouring blocks build. Nothing is fitted per record.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <sstream>

#include "ops/device.h"
#include "models/gpu/warp/kernel_launch.h"
#include "viz/warp/kernel_report.h"
#include "app/kernel/kernel_source.h"
#include "models/gpu/warp/parser.h"
#include "sim/config/config.h"
#include "sim/error.h"
#include "sim/measurement/measurement.h"

namespace hwsim::warp {
namespace {

constexpr int kSms = 132;  // the measured H100's SM count (device record); grids are multiples of it

struct KernelPlan {
  std::string kernel;              // a kernel of workloads/kernels/, or a path relative to the source tree
  std::int64_t grid = 1, block = 32;
  std::map<std::string, std::string> args;
  int sample_sms = 1;
  bool graph = false;      // timed as replays of a CUDA graph: gpu.warp.graph_launch per launch,
                           // the buffers warm in L2 from the previous replay
  bool per_load = false;   // latency: predicted = cycles per dependent load / clock
  std::int64_t steps = 0;
  std::string entry = "";          // a .ptx or .cu file's kernel (lesson records)
  std::int64_t grid_dim[3] = {0, 1, 1}, block_dim[3] = {0, 1, 1};
  std::int64_t dynamic_shared = 0;
};

PredictionPlan make_plan(KernelPlan k) {
  PredictionPlan plan;
  plan.workload = fmt::format("warp:{} grid={} block={}", k.kernel, k.grid, k.block);
  for (const auto& [n, v] : k.args) plan.workload += fmt::format(" {}={}", n, v);
  plan.device_kind = "gpu";
  plan.simulate = [k](const std::string& chip, const std::vector<std::string>& overrides) {
    auto sets = overrides;
    sets.push_back("gpu.core.model=warp");
    Config config = load_chip(chip, sets);
    auto params = WarpParams::from_config(config);
    LaunchOptions o;
    o.args.grid = k.grid;
    o.args.block = k.block;
    o.args.args = k.args;
    for (int d = 0; d < 3; ++d) o.args.grid_dim[d] = k.grid_dim[d], o.args.block_dim[d] = k.block_dim[d];
    o.args.dynamic_shared = std::uint64_t(k.dynamic_shared);
    o.warm_l2 = k.graph;
    o.max_cycles = 100'000'000'000;  // the shipped microbenchmarks end; the long pointer chases pass 1e8 cycles
    Program program = load_kernel_program(
        std::string(HWSIM_SOURCE_DIR) + (k.kernel.find('/') == std::string::npos ? "/workloads/kernels/" + k.kernel + ".hwk" : "/" + k.kernel),
        k.entry);
    // a subset of SMs runs blocks far apart in the grid, which never share an L2 line, so the
    // queues that neighbouring blocks' atomics build on a line (gpu.warp.atomic_line) need every SM
    const bool atomics = std::any_of(program.code.begin(), program.code.end(), [](const Instr& in) { return in.op == Op::atom_add; });
    o.sample_sms = atomics ? 0 : k.sample_sms;
    auto run = run_kernel(params, std::move(program), o);
    auto doc = kernel_document(*run);
    if (k.per_load) {
      const Buffer* cyc = run->memory.by_name("cyc");
      double cycles = run->memory.element_value(*cyc, 0) / double(k.steps);
      doc["predicted_seconds"] = cycles / run->clock_hz;
    } else {
      // microbench.cu times one launch between cudaEvents (no graph): that launch overhead;
      // classroom.cu replays a CUDA graph of many launches: a graph launch's
      double timed = k.graph ? params.graph_launch : params.event_timed_launch;
      double launch = timed > 0 ? timed : run->launch_overhead;
      doc["predicted_seconds"] = run->seconds - run->launch_overhead + launch;
    }
    return doc.dump();
  };
  plan.predicted_seconds = [](const nlohmann::json& d) { return d["predicted_seconds"].get<double>(); };
  return plan;
}

// Every field these records carry is a positive whole number (record_whole checks it).
std::optional<std::int64_t> whole(const Measurement& m, const char* key) { return record_whole(m, key, 1); }

std::optional<PredictionPlan> bank_conflict(const Measurement& m) {
  auto stride = whole(m, "stride_words");
  if (!stride) return std::nullopt;
  return make_plan({"bank_conflict", kSms * 4, 512, {{"stride", std::to_string(*stride)}, {"iters", "4096"}}, 1});
}

std::optional<PredictionPlan> divergence(const Measurement& m) {
  auto paths = whole(m, "paths"), work = whole(m, "work");
  if (!paths || !work) return std::nullopt;
  return make_plan({"divergence", kSms * 8, 256, {{"paths", std::to_string(*paths)}, {"work", std::to_string(*work)}}, 1});
}

std::optional<PredictionPlan> branch_data(const Measurement& m) {
  auto work = whole(m, "work");
  auto order_field = record_text(m, "order");
  if (!work || !order_field) return std::nullopt;
  std::string order = *order_field;
  std::string x = order == "sorted" ? "threads:sorted" : "threads:random:1";
  return make_plan({"branch_data", kSms * 8, 256, {{"x", x}, {"work", std::to_string(*work)}}, 1});
}

std::optional<PredictionPlan> coalescing(const Measurement& m) {
  auto stride = whole(m, "stride_words"), threads = whole(m, "threads");
  if (!stride || !threads) return std::nullopt;
  return make_plan({"strided_read", *threads / 256, 256, {{"stride", std::to_string(*stride)}}, 4});
}

std::optional<PredictionPlan> latency(const Measurement& m) {
  auto kb = whole(m, "footprint_kb"), steps = whole(m, "steps");
  if (!kb || !steps) return std::nullopt;
  std::int64_t s = std::min<std::int64_t>(*steps, 262144);  // simulation time; every step is a cache miss past L2 anyway
  // microbench.cu runs chase twice and times the second launch (256 warm loads, then the timed
  // steps, from slot 0); the first launch is replayed as `prior` L2-only loads because a new launch
  // starts with an invalidated L1 (only the L2 keeps the first launch's lines). The first launch
  // runs the measured step count (its L2 state decides whether slot 0 is still cached); only the
  // timed launch is shortened.
  KernelPlan k{"workloads/kernels/pointer_chase_relaunch.hwk", 1, 1, {{"next", fmt::format("{}:chase:7", *kb * 1024 / 4)}, {"steps", std::to_string(s)},
                                   {"prior", std::to_string(*steps + 256)}, {"warm", "256"}}, 1};
  k.per_load = true;
  k.steps = s;
  return make_plan(k);
}

std::optional<PredictionPlan> occupancy_bw(const Measurement& m) {
  auto w = whole(m, "warps_per_sm");
  if (!w) return std::nullopt;
  std::int64_t threads = std::min<std::int64_t>(*w * 32, 1024);
  std::int64_t blocks_per_sm = *w * 32 / threads;
  return make_plan({"stream_copy", kSms * blocks_per_sm, threads, {}, 1});
}

// The teaching kernels' CUDA twins (scripts/measure/campaign/classroom.cu): the record names the
// shipped kernel, its grid, block and the hwsim command's --arg values; `tile` picks the tile-size
// variant (matmul_tiled8.hwk, matmul_tiled32.hwk; 16 is matmul_tiled.hwk). Grids beyond four
// blocks per SM simulate 2 SMs and their share (as the microbenchmarks do), unless the kernel has
// atomics (make_plan).
std::optional<PredictionPlan> classroom(const Measurement& m) {
  auto kernel = record_text(m, "kernel");
  auto grid = whole(m, "grid"), block = whole(m, "block");
  auto command = record_text(m, "hwsim_command");
  if (!kernel || !grid || !block || !command) return std::nullopt;
  for (char c : *kernel)  // a shipped kernel's name, never a path
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return std::nullopt;
  KernelPlan k{*kernel, *grid, *block, {}, *grid > kSms * 4 ? 2 : 0};
  k.graph = true;
  std::istringstream words(*command);
  for (std::string w, prev; words >> w; prev = w) {
    if (prev != "--arg") continue;
    auto eq = w.find('=');
    if (eq == std::string::npos) return std::nullopt;
    if (w.substr(0, eq) == "tile") {
      if (w.substr(eq + 1) != "16") k.kernel += w.substr(eq + 1);
      continue;
    }
    k.args[w.substr(0, eq)] = w.substr(eq + 1);
  }
  return make_plan(k);
}

// A classic CUDA lesson's kernel (workloads/kernels/lessons/*.cu, scripts/measure/lessons/): the
// record names the source file (`source`, relative to the source tree, else the hwsim command's
// --kernel), the kernel (`kernel`, its C++ name), `grid` and `block` as [x, y, z],
// `dynamic_shared` bytes and the arguments by position (`args`: "0=f32[1048576]:random:1").
// Timed as CUDA graph replays: the buffers warm in L2, a graph launch's overhead. The whole grid
// runs (no SM subset): these grids are small enough.
std::optional<PredictionPlan> lesson(const Measurement& m) {
  auto entry = record_text(m, "kernel");
  auto source = record_text(m, "source");
  if (!source) {
    auto command = record_text(m, "hwsim_command");
    if (!command) return std::nullopt;
    std::istringstream words(*command);
    for (std::string w, prev; words >> w; prev = w)
      if (prev == "--kernel") source = w;
  }
  const auto& f = m.fields;
  if (!entry || !source || source->empty() || (*source)[0] == '/' || source->find("..") != std::string::npos) return std::nullopt;
  if (!f.contains("grid") || !f["grid"].is_array() || !f.contains("block") || !f["block"].is_array()) return std::nullopt;
  KernelPlan k;
  k.kernel = *source;
  k.entry = *entry;
  k.graph = true;
  k.sample_sms = 0;
  k.grid = k.block = 1;
  for (int d = 0; d < 3; ++d) {
    auto dim = [&](const char* key) -> std::int64_t {
      const auto& a = f[key];
      if (std::size_t(d) >= a.size()) return 1;
      if (!a[std::size_t(d)].is_number_integer() || a[std::size_t(d)].get<std::int64_t>() < 1 || a[std::size_t(d)].get<std::int64_t>() > (1ll << 31))
        throw UserError(ExitCode::io, fmt::format("{}:{}: {}: expected [x, y, z] of whole numbers from 1", m.file, m.line, key));
      return a[std::size_t(d)].get<std::int64_t>();
    };
    k.grid_dim[d] = dim("grid"), k.block_dim[d] = dim("block");
    k.grid *= k.grid_dim[d], k.block *= k.block_dim[d];
  }
  if (auto dyn = record_whole(m, "dynamic_shared")) k.dynamic_shared = *dyn;
  if (f.contains("args") && f["args"].is_array())
    for (const auto& a : f["args"]) {
      if (!a.is_string()) throw UserError(ExitCode::io, fmt::format("{}:{}: args: expected strings POSITION=SPEC", m.file, m.line));
      auto [name, spec] = parse_arg(a.get<std::string>());
      k.args[name] = spec;
    }
  PredictionPlan plan = make_plan(k);
  plan.workload = fmt::format("kernel:{} entry={} grid={} block={}", k.kernel, k.entry, k.grid, k.block);
  if (auto group = record_word(m, "speedup_group")) plan.family = *group;
  return plan;
}

HWSIM_REGISTER_MEASUREMENT("lesson", "a CUDA lesson's kernel (.cu or .ptx) on one GPU, compiled to PTX and run on the warp model", lesson);
HWSIM_REGISTER_MEASUREMENT("classroom", "a classroom CUDA kernel's time on one GPU, rerun as its .hwk program on the warp model", classroom);
HWSIM_REGISTER_MEASUREMENT("bank_conflict", "shared-memory bank-conflict microbenchmark (stride, iterations) on the warp model", bank_conflict);
HWSIM_REGISTER_MEASUREMENT("divergence", "warp-divergence microbenchmark (paths per warp) on the warp model", divergence);
HWSIM_REGISTER_MEASUREMENT("branch_data", "data-dependent branch microbenchmark on the warp model", branch_data);
HWSIM_REGISTER_MEASUREMENT("coalescing", "global-memory coalescing microbenchmark (stride) on the warp model", coalescing);
HWSIM_REGISTER_MEASUREMENT("latency", "pointer-chase memory latency microbenchmark (footprint) on the warp model", latency);
HWSIM_REGISTER_MEASUREMENT("occupancy_bw", "streaming bandwidth against resident warps per SM on the warp model", occupancy_bw);

}  // namespace
}  // namespace hwsim::warp
