// The warp model's memory below the L2 behind a TLM-2.0 socket (gpu.warp.dram_model = "tlm",
// tlm_dram.h): an external target bound to it sees exactly the kernel's DRAM transactions (a copy
// of 1 MiB: every 64-byte granule of the source read once, every 128-byte line of the destination
// written once, nothing outside the buffers), the latency it annotates is the kernel's DRAM
// latency (a slower target makes the kernel slower by at least the difference), and the key and
// the hook must agree (one config error line otherwise).
#include <doctest/doctest.h>

#include <algorithm>
#include <exception>
#include <set>

#include "models/gpu/warp/tlm_dram.h"
#include "models/gpu/warp/tlm_example_target.h"
#include "sim/error.h"
#include "u4_warp_support.h"

#include <tlm_utils/simple_target_socket.h>

using namespace hwsim;
using namespace hwsim::warp;

namespace {

// Fixed latency, records every transaction.
class RecordingTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<RecordingTarget> socket;
  struct Seen {
    bool write;
    std::uint64_t address;
    unsigned length;
    double arrival;  // s
  };
  std::vector<Seen> seen;
  double latency = 0;  // s
  explicit RecordingTarget(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
    socket.register_b_transport(this, &RecordingTarget::b_transport);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    seen.push_back({t.is_write(), t.get_address(), t.get_data_length(), sim_now() + seconds_of(delay)});
    delay += to_sc_time(latency);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// The same fixed latency, spent in wait() rather than annotated (allowed in an SC_THREAD only).
class WaitingTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<WaitingTarget> socket;
  double latency = 0;  // s
  std::uint64_t seen = 0;
  explicit WaitingTarget(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
    socket.register_b_transport(this, &WaitingTarget::b_transport);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    ++seen;
    wait(delay + to_sc_time(latency));
    delay = sc_core::SC_ZERO_TIME;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

constexpr std::uint64_t kFloats = 262144;  // 1 MiB per buffer

LaunchOptions copy_launch() {
  LaunchOptions o;
  o.args.grid = 64;
  o.args.block = 256;
  o.args.args = {{"n", std::to_string(kFloats / 4)}, {"a", std::to_string(kFloats) + ":iota"},
                 {"b", std::to_string(kFloats) + ":zeros"}};
  return o;
}

WarpParams tlm_params() {
  WarpParams p = test::h100();
  p.dram_model = DramModelKind::tlm;
  return p;
}

struct Outcome {
  std::unique_ptr<KernelRun> run;
  std::vector<RecordingTarget::Seen> seen;
  double mean_latency = 0;  // cycles, as TlmDram measured them
};

// The runs, inside one SC_THREAD after elaboration (a socket is usable once bound and elaborated).
class Bench : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Bench);
  explicit Bench(sc_core::sc_module_name name) : sc_module(name), dram("dram"), target("target"), dram2("dram2"), example("example"),
                                               dram3("dram3"), waiting("waiting") {
    dram.socket.bind(target.socket);
    dram2.socket.bind(example.socket);
    dram3.socket.bind(waiting.socket);
    SC_THREAD(run);
  }
  TlmDram dram;
  RecordingTarget target;
  TlmDram dram2;
  ExampleDramTarget example;
  TlmDram dram3;
  WaitingTarget waiting;
  std::unique_ptr<KernelRun> builtin, on_example, on_waiting;
  double waiting_latency = 0;  // cycles
  Outcome fast, slow;
  std::exception_ptr error;

 private:
  Outcome with_latency(double seconds) {
    target.seen.clear();
    target.latency = seconds;
    LaunchOptions o = copy_launch();
    o.dram = &dram;
    Outcome out;
    out.run = simulate_kernel(tlm_params(), load_kernel("workloads/kernels/stream_copy.hwk"), o);
    out.seen = target.seen;
    out.mean_latency = dram.mean_read_latency();
    return out;
  }
  void run() {
    try {
      builtin = simulate_kernel(test::h100(), load_kernel("workloads/kernels/stream_copy.hwk"), copy_launch());
      fast = with_latency(double(test::h100().hbm_latency) / test::h100().chip.clock_hz);
      slow = with_latency(4.0 * double(test::h100().hbm_latency) / test::h100().chip.clock_hz);
      LaunchOptions o = copy_launch();
      o.dram = &dram2;
      on_example = simulate_kernel(tlm_params(), load_kernel("workloads/kernels/stream_copy.hwk"), o);
      waiting.latency = double(test::h100().hbm_latency) / test::h100().chip.clock_hz;
      o.dram = &dram3;
      on_waiting = simulate_kernel(tlm_params(), load_kernel("workloads/kernels/stream_copy.hwk"), o);
      waiting_latency = dram3.mean_read_latency();
    } catch (...) {
      error = std::current_exception();
    }
  }
};

}  // namespace

TEST_CASE("warp TLM DRAM: an external target sees exactly the kernel's DRAM transactions, and its latency times the kernel") {
  init_systemc();
  Bench bench("bench");
  sc_core::sc_start();
  if (bench.error) std::rethrow_exception(bench.error);
  const KernelRun& run = *bench.fast.run;
  const MemoryStats& m = run.memory_stats;
  const Buffer& a = *run.memory.by_name("a");
  const Buffer& b = *run.memory.by_name("b");
  const int per_access = test::h100().dram_access_bytes / test::h100().sector_bytes;
  REQUIRE(per_access == 2);

  // the built-in statistics are the same with the external model (a copy fetches each granule once)
  CHECK(m.dram_sectors == bench.builtin->memory_stats.dram_sectors);
  CHECK(m.store_sectors == bench.builtin->memory_stats.store_sectors);
  CHECK(m.dram_sectors == a.bytes() / 32);
  CHECK(m.store_sectors == b.bytes() / 32);

  std::uint64_t reads = 0, writes = 0, read_bytes = 0, write_bytes = 0;
  std::set<std::uint64_t> granules, written;
  const double kernel_end = double(run.stats.cycles) / run.clock_hz;
  bool outside = false, late = false;
  for (const auto& s : bench.fast.seen) {
    if (s.arrival < 0 || s.arrival > kernel_end) late = true;
    if (s.write) {
      ++writes;
      write_bytes += s.length;
      if (s.address < b.base || s.address + s.length > b.base + b.bytes()) outside = true;
      for (std::uint64_t x = s.address; x < s.address + s.length; x += 32) written.insert(x);
    } else {
      ++reads;
      read_bytes += s.length;
      if (s.length != 64) outside = true;  // one access granule
      if (s.address < a.base || s.address + s.length > a.base + a.bytes() || s.address % 64 != 0) outside = true;
      granules.insert(s.address);
    }
  }
  CHECK_FALSE(outside);
  CHECK_FALSE(late);  // issued at the warp model's cycles, offset from the kernel's start
  // one read per DRAM access the built-in statistics count, each granule of `a` once
  CHECK(reads == m.dram_sectors / std::uint64_t(per_access));
  CHECK(read_bytes == m.dram_sectors * 32);
  CHECK(granules.size() == reads);
  CHECK(granules.size() == a.bytes() / 64);
  // the stores: full 128-byte lines, each sector of `b` once
  CHECK(write_bytes == m.store_sectors * 32);
  CHECK(writes == b.bytes() / 128);
  CHECK(written.size() == b.bytes() / 32);
  // the values are the warp model's own (the payload carries no data back)
  CHECK(test::values(run, "b")[12345] == 12345.0);

  // the latency the target annotates is the reads' latency, in SM cycles
  const double lat = double(test::h100().hbm_latency);
  CHECK(bench.fast.mean_latency == doctest::Approx(lat).epsilon(1e-6));
  CHECK(bench.slow.mean_latency == doctest::Approx(4 * lat).epsilon(1e-6));
  // a slower target: the same transactions, a slower kernel (by at least the extra latency once)
  CHECK(bench.slow.seen.size() == bench.fast.seen.size());
  CHECK(bench.slow.run->stats.cycles >= bench.fast.run->stats.cycles + std::int64_t(3 * lat));

  // the example target (banks, open rows, a bus): the same transactions, a plausible time
  CHECK(bench.example.reads == reads);
  CHECK(bench.example.writes == writes);
  CHECK(bench.example.row_hits > 0);
  CHECK(bench.example.row_misses > 0);
  CHECK(bench.on_example->stats.cycles > 0);
  CHECK(test::values(*bench.on_example, "b")[kFloats - 1] == double(kFloats - 1));

  // a target that wait()s its latency instead of annotating it (the warp model runs in an
  // SC_THREAD here, as under run_kernel): the time waited is the latency, the kernel the same
  CHECK(bench.waiting.seen == bench.fast.seen.size());
  CHECK(bench.waiting_latency == doctest::Approx(lat).epsilon(1e-6));
  CHECK(bench.on_waiting->stats.cycles == bench.fast.run->stats.cycles);
}

namespace {
struct NullDram : DramModel {
  std::int64_t read(double t, std::uint64_t, int) override { return std::int64_t(t); }
  void write(double, std::uint64_t, std::uint32_t, int) override {}
  double bytes() const override { return 0; }
};
}  // namespace

TEST_CASE("warp TLM DRAM: gpu.warp.dram_model and the bound model must agree") {
  // "tlm" with nothing bound (the hwsim program binds nothing): one config error line naming the key
  try {
    simulate_kernel(tlm_params(), load_kernel("workloads/kernels/stream_copy.hwk"), copy_launch());
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::config);
    CHECK(std::string(e.what()).find("gpu.warp.dram_model = \"tlm\": no TLM-2.0 target is bound") != std::string::npos);
  }
  // a model bound while the key says "builtin"
  NullDram null;
  LaunchOptions o = copy_launch();
  o.dram = &null;
  try {
    simulate_kernel(test::h100(), load_kernel("workloads/kernels/stream_copy.hwk"), o);
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::config);
    CHECK(std::string(e.what()).find("gpu.warp.dram_model is \"builtin\"") != std::string::npos);
  }
  // the programmatic hook: any DramModel (here one of zero latency) times the kernel
  o.dram = &null;
  auto fast = simulate_kernel(tlm_params(), load_kernel("workloads/kernels/stream_copy.hwk"), o);
  auto builtin = simulate_kernel(test::h100(), load_kernel("workloads/kernels/stream_copy.hwk"), copy_launch());
  CHECK(fast->stats.cycles < builtin->stats.cycles);
}
