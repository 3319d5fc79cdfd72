// Chain replay (models/gpu/tile/tile_machine_replay.cpp): kernels replayed one after another leave
// the caches' contents deferred (the last outcome's state with its names) and take their renamed
// state from the outcome's links. Every record is still the one simulating every kernel gives, bit
// for bit, across many kernels at a power limit that throttles (the governor refuses some replays:
// the chain is materialized and the kernel simulated); and a step-level reader or writer of the
// caches (cache_state, set_cache_state: StepReplay) in the middle of a chain sees and sets the
// contents simulation would have.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "models/gpu/tile/lowering_memo.h"
#include "models/gpu/tile/tile_machine.h"
#include "models/gpu/tile/tile_step_lowering.h"
#include "ops/device.h"
#include "run/program.h"
#include "sim/engine/isolated_run.h"
#include "sim/engine/systemc.h"
#include "tests/fixtures/test_support.h"
#include "workloads/workload.h"

using namespace hwsim;
using hwsim::test::chip_file;

namespace {

class Driver : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Driver);
  Driver(sc_core::sc_module_name name, std::function<void()> script)
      : sc_core::sc_module(name), script_(std::move(script)) {
    SC_THREAD(run);
  }

 private:
  void run() { script_(); }
  std::function<void()> script_;
};

std::string record_text(const WorkRecord& k) {
  std::string out = fmt::format("{} {:a} {:a} {:a} {:a} {:a} {:a} {:a} {:a} {:a}", k.name, k.start, k.end, k.energy,
                                k.clock, k.throttled, k.breakdown.compute, k.breakdown.memory, k.breakdown.overhead,
                                k.breakdown.idle);
  for (double b : k.traffic) out += fmt::format(" {:a}", b);
  for (double e : k.energy_parts) out += fmt::format(" {:a}", e);
  return out + '\n';
}

std::string state_text(const PartitionedCaches::State& s) {
  std::string out = "state";
  auto level = [&](const CacheResidency::Contents& c) {
    out += fmt::format(" | {}:", c.held.size());
    for (const auto& h : c.held) out += fmt::format(" {} {:a} {:a} {}", h.id, h.begin, h.end, int(h.dirty));
  };
  for (const auto& c : s.l2) level(c);
  if (s.mall) level(*s.mall);
  for (const auto& w : s.written_back) out += fmt::format(" w {} {:a} {:a}", w.id, w.begin, w.end);
  return out + '\n';
}

// A decode step of `spec` lowered for `chip`, run on a TileMachine directly (replay on or off):
// steps 0-2 as a device runs them, the caches read after each and in the middle of step 1; then
// the state read after step 0 set back in the middle of step 3 (a step-level writer), and step 3
// run on. The counts (replayed, simulated, kernels a step), then every record and state read.
std::string run_steps(const std::string& chip_name, const std::vector<std::string>& sets, const std::string& spec,
                      bool replay) {
  return run_isolated([&] {
    TileMachine::replay_kernels(replay);
    init_systemc();
    GpuChip chip = GpuChip::from_config(load_chip(chip_file(chip_name), sets));
    Workload w = WorkloadCatalog::build(spec);
    Program program = make_program(w.steps.front(), "eager");
    const std::vector<PackedKernel> kernels = pack_kernels(lower_tile_step(program.step, chip), chip);
    TileMachine machine("gpu", chip);
    std::string out;
    Driver driver("driver", [&] {
      PartitionedCaches::State first;
      for (int step = 0; step < 4; ++step) {
        double start = sim_now();
        for (std::size_t i = 0; i < kernels.size(); ++i) {
          if (i == kernels.size() / 2 && step == 1) out += state_text(machine.cache_state());
          if (i == kernels.size() / 2 && step == 3) machine.set_cache_state(first);
          out += record_text(machine.run_kernel(kernels[i], start, i + 1 == kernels.size()));
        }
        out += state_text(machine.cache_state());
        if (step == 0) first = machine.cache_state();
      }
    });
    sc_core::sc_start();
    rethrow_simulation_failure();
    TileMachine::ReplayCounts n = TileMachine::process_replay_counts();
    return fmt::format("{} {} {}\n", n.replayed, n.simulated, kernels.size()) + out;
  });
}

// Replay on and off give the same text; returns the counts with replay on.
TileMachine::ReplayCounts check_alike(const std::string& chip, const std::vector<std::string>& sets,
                                      const std::string& spec) {
  std::string replayed = run_steps(chip, sets, spec, true), simulated = run_steps(chip, sets, spec, false);
  std::size_t per_step = 0;
  TileMachine::ReplayCounts n;
  std::sscanf(replayed.c_str(), "%lu %lu %zu", &n.replayed, &n.simulated, &per_step);
  CHECK_MESSAGE(n.replayed > 100, "too few kernels replayed");
  CHECK(simulated.rfind("0 ", 0) == 0);
  CHECK(replayed.size() > 10000);
  CHECK((replayed.substr(replayed.find('\n')) == simulated.substr(simulated.find('\n'))));
  return n;
}

}  // namespace

TEST_CASE("chain replay: readers and writers of the caches mid-chain see what simulation gives") {
  check_alike("h100", {}, "decode:model=llama3_8b,batch=32,context=300,layers=4");
}

TEST_CASE("chain replay: at a throttling power limit, across many kernels, mid-chain reads and writes") {
  TileMachine::ReplayCounts n =
      check_alike("h100", {"power.tdp=300 W"}, "decode:model=llama3_8b,batch=64,context=400,layers=8");
  CHECK(n.simulated > n.replayed / 20);  // chains broke (the governor refused, or new caches) and went on
}

TEST_CASE("chain replay: a partitioned chip with a memory-side cache, mid-chain reads and writes") {
  check_alike("mi300x", {}, "decode:model=llama3_8b,batch=16,context=300,layers=4");
}
