// The warp model with its memory below the L2 bound to an external SystemC DRAM model over
// TLM-2.0 (models/gpu/warp/tlm_dram.h): here the example target of tlm_example_target.h (banks
// with open rows, one data bus, a controller latency, loosely timed). Bind your own model's target
// socket in its place (DRAMSys, a Ramulator wrapper): it sees one b_transport per DRAM access.
//
//   build/examples/warp_tlm_dram [KERNEL.hwk [NAME=SPEC ...] [--grid G] [--block B]] [--all]
//
// Without arguments it copies 1 MiB (workloads/kernels/stream_copy.hwk, 64 blocks of 256 threads)
// on an H100, prints the first transactions the target saw, the totals and the kernel's time, and
// the same kernel on the built-in DRAM model beside it.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fmt/format.h>
#include <string>

#include "models/gpu/warp/kernel_launch.h"
#include "models/gpu/warp/parser.h"
#include "models/gpu/warp/tlm_dram.h"
#include "models/gpu/warp/tlm_example_target.h"
#include "ops/device.h"
#include "sim/config/config.h"
#include "sim/error.h"

using namespace hwsim;
using namespace hwsim::warp;

namespace {

struct Options {
  std::string kernel = std::string(HWSIM_SOURCE_DIR) + "/workloads/kernels/stream_copy.hwk";
  LaunchArgs args;
  std::size_t show = 8;  // transactions printed (--all: every one)
};

// The embedding program: the warp model's TLM initiator bound to the DRAM target, and a thread
// that runs the kernel (a socket carries transactions once elaboration is complete).
class Top : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Top);
  Top(sc_core::sc_module_name name, const Options& o) : sc_module(name), dram("warp_dram"), target("example_dram"), o_(o) {
    dram.socket.bind(target.socket);  // <- bind your DRAM model's target socket here
    target.keep_records = true;
    SC_THREAD(run);
  }
  TlmDram dram;
  ExampleDramTarget target;
  std::exception_ptr error;

 private:
  void run() {
    try {
      const char* chip = HWSIM_SOURCE_DIR "/configs/h100.toml";
      const WarpParams builtin = WarpParams::from_config(load_chip(chip, {"gpu.core.model=warp"}));
      const WarpParams tlm = WarpParams::from_config(load_chip(chip, {"gpu.core.model=warp", "gpu.warp.dram_model=tlm"}));
      LaunchOptions launch;
      launch.args = o_.args;
      auto own = simulate_kernel(builtin, load_kernel(o_.kernel), launch);
      launch.dram = &dram;
      auto run = simulate_kernel(tlm, load_kernel(o_.kernel), launch);

      fmt::print("kernel {} (grid {}, block {}) on {} with its DRAM over TLM-2.0 ({} bound to {})\n", run->program.name,
                 run->grid, run->block, builtin.chip.name, dram.socket.name(), target.socket.name());
      const auto& seen = target.records();
      fmt::print("first transactions the target saw (of {}):\n", seen.size());
      fmt::print("  {:>5}  {:>18}  {:>6}  {:>12}  {:>10}  {}\n", "", "address", "bytes", "arrival ns", "delay ns", "row");
      for (std::size_t i = 0; i < seen.size() && i < o_.show; ++i)
        fmt::print("  {:>5}  {:#18x}  {:>6}  {:>12.1f}  {:>10.1f}  {}\n", seen[i].write ? "WRITE" : "READ", seen[i].address,
                   seen[i].length, seen[i].arrival * 1e9, seen[i].added * 1e9, seen[i].row_hit ? "hit" : "miss");
      fmt::print("transactions: {} reads ({} B), {} writes ({} B); rows: {} hits, {} misses\n", dram.reads(), dram.read_bytes(),
                 dram.writes(), dram.write_bytes(), target.row_hits, target.row_misses);
      fmt::print("the warp model counted: {} DRAM sectors read, {} sectors stored (32 B each)\n", run->memory_stats.dram_sectors,
                 run->memory_stats.store_sectors);
      fmt::print("mean read latency the target annotated: {:.0f} cycles ({:.1f} ns)\n", dram.mean_read_latency(),
                 dram.mean_read_latency() / run->clock_hz * 1e9);
      auto line = [](const char* what, const KernelRun& r) {
        fmt::print("kernel time, {:<22} {:>9} cycles = {:8.2f} us ({:.0f} GB/s of DRAM traffic)\n", what, r.stats.cycles,
                   double(r.stats.cycles) / r.clock_hz * 1e6,
                   double(r.memory_stats.dram_sectors + r.memory_stats.store_sectors) * r.sector_bytes /
                       (double(r.stats.cycles) / r.clock_hz) / 1e9);
      };
      line("example TLM target:", *run);
      line("built-in DRAM model:", *own);
    } catch (...) {
      error = std::current_exception();
    }
  }
  Options o_;
};

}  // namespace

int main(int argc, char** argv) {
  Options o;
  o.args.grid = 64;
  o.args.block = 256;
  bool custom = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--all") o.show = SIZE_MAX;
    else if ((a == "--grid" || a == "--block") && i + 1 < argc) (a == "--grid" ? o.args.grid : o.args.block) = std::atoll(argv[++i]);
    else if (a.find('=') != std::string::npos) o.args.args.insert(parse_arg(a));
    else if (!custom) o.kernel = a, custom = true;
    else {
      std::fprintf(stderr, "usage: %s [KERNEL.hwk [NAME=SPEC ...] [--grid G] [--block B]] [--all]\n", argv[0]);
      return 2;
    }
  }
  if (!custom) o.args.args = {{"n", "65536"}, {"a", "262144:iota"}, {"b", "262144:zeros"}};
  try {
    init_systemc();
    Top top("top", o);
    sc_core::sc_start();
    if (top.error) std::rethrow_exception(top.error);
  } catch (const UserError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return int(e.code());
  }
  return 0;
}
