// A kernel whose renamed shape and caches match a recorded run, from a governor that sets the
// recorded clocks, takes that run's outcome (TileMachine::replay_kernels, kernel_replay.h). Every
// record of a run is then the one simulating every kernel gives, bit for bit: each kernel is
// simulated in times and sums measured from its own start (TileMachine::restart_frame), so its run
// does not depend on the absolute time. Decode steps whose layers replay, a generate whose steps
// replay across steps, a GPU held at a power limit (clocks that move from kernel to kernel), and a
// partitioned AMD chip with its memory-side cache. The replayed runs must replay (a test that
// cannot fail otherwise).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <sstream>

#include "ops/device.h"
#include "run/simulate.h"
#include "models/gpu/tile/tile_machine.h"
#include "sim/engine/isolated_run.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {

struct Run {
  std::vector<std::string> names;
  std::vector<double> figures;
  std::uint64_t replayed = 0, repriced = 0;
};

Run run(const std::string& chip, const std::vector<std::string>& overrides, const std::string& spec, bool replay) {
  std::string text = run_isolated([&] {
    TileMachine::replay_kernels(replay);
    RunStreams keep;
    keep.keep_records = true;
    RunResult r = simulate(load_chip(chip, overrides), WorkloadCatalog::build(spec), keep);
    const TileMachine::ReplayCounts n = TileMachine::process_replay_counts();
    std::string out = fmt::format("{} {} {:a} {:a}\n", n.replayed, n.repriced, r.seconds, r.energy);
    for (const auto& step : r.steps)
      for (const auto& k : step.records) {
        out += fmt::format("{} {:a} {:a} {:a} {:a} {:a} {:a} {:a} {:a} {:a}", k.name, k.start, k.end, k.energy, k.clock,
                           k.throttled, k.breakdown.compute, k.breakdown.memory, k.breakdown.overhead,
                           k.breakdown.idle);
        for (double b : k.traffic) out += fmt::format(" {:a}", b);
        for (double e : k.energy_parts) out += fmt::format(" {:a}", e);
        out += '\n';
      }
    return out;
  });
  Run out;
  std::istringstream in(text);
  std::string word;
  in >> out.replayed >> out.repriced;
  while (in >> word) {
    if (std::isalpha(static_cast<unsigned char>(word[0])) && word.rfind("0x", 0) != 0 && word.rfind("-0x", 0) != 0)
      out.names.push_back(word);
    else
      out.figures.push_back(std::strtod(word.c_str(), nullptr));
  }
  return out;
}

Run check_alike(const std::string& chip, const std::vector<std::string>& overrides, const std::string& spec) {
  Run replayed = run(chip, overrides, spec, true), simulated = run(chip, overrides, spec, false);
  CHECK_MESSAGE(replayed.replayed > 0, spec << ": no kernel replayed");
  CHECK(simulated.replayed == 0);
  CHECK(replayed.names == simulated.names);
  REQUIRE(replayed.figures.size() == simulated.figures.size());
  REQUIRE(replayed.figures.size() > 100);
  int off = 0;
  for (std::size_t i = 0; i < replayed.figures.size(); ++i) {
    double a = replayed.figures[i], b = simulated.figures[i];
    if (std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b)) continue;
    if (off++ < 5) MESSAGE(spec << ": figure " << i << " replayed " << a << ", simulated " << b);
  }
  CHECK_MESSAGE(off == 0, off << " figures differ");
  return replayed;
}

}  // namespace

TEST_CASE("kernel replay: a decode step's layers replay as they simulate") {
  check_alike("h100", {}, "decode:model=llama3_8b,batch=64,context=600,layers=6");
}

TEST_CASE("kernel replay: a generate's steps replay as they simulate") {
  check_alike("h100", {}, "generate:model=llama3_8b,batch=2,prompt=64,output=6,layers=3");
}

TEST_CASE("kernel replay: under a power limit, replays take only the clocks the governor sets") {
  check_alike("h100", {"power.tdp=300 W"}, "decode:model=llama3_8b,batch=128,context=400,layers=6");
}

// A kernel whose flows no SM limited (memory-bound) runs alike at any higher clock: recorded at
// one clock, it is taken at the higher ones the throttling governor sets later, its energy priced
// again at them (GpuClockDomain::replay_at_clocks). Those must occur, and change no bit.
TEST_CASE("kernel replay: a memory-bound kernel recorded at one clock runs repriced at higher ones") {
  Run r = check_alike("h100", {"power.tdp=300 W"}, "decode:model=llama3_8b,batch=64,context=400,layers=8");
  CHECK(r.repriced > 0);
  CHECK(r.repriced < r.replayed);
}

TEST_CASE("kernel replay: a partitioned AMD chip with its memory-side cache") {
  check_alike("mi300x", {}, "decode:model=llama3_8b,batch=16,context=300,layers=4");
}
