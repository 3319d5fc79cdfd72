#pragma once
// Every figure of every record of a run, %a (exact), one line each: for tests that two ways of
// simulating (CTA groups on or off, local refills on or off) give the same bits.
#include <fmt/format.h>

#include <functional>
#include <string>

#include "ops/device.h"
#include "run/simulate.h"
#include "sim/engine/isolated_run.h"
#include "workloads/workload.h"

namespace hwsim::test {

// `setup` runs first in the isolated process (it sets the process-wide switches); `after`'s text,
// if given, ends the output.
inline std::string records_text(const std::string& chip, const std::string& spec, const std::function<void()>& setup,
                                const std::function<std::string()>& after = {}) {
  return run_isolated([&] {
    setup();
    RunResult r = simulate(load_chip(chip, {}), WorkloadCatalog::build(spec));
    std::string out = fmt::format("{:a} {:a}\n", r.seconds, r.energy);
    for (const auto& step : r.steps)
      for (const auto& k : step.records) {
        out += fmt::format("{} {:a} {:a} {:a} {:a} {:a} {:a} {:a} {:a} {:a}", k.name, k.start, k.end, k.energy,
                           k.breakdown.compute, k.breakdown.memory, k.breakdown.overhead, k.breakdown.idle, k.flops,
                           k.min_bytes);
        for (double b : k.traffic) out += fmt::format(" {:a}", b);
        for (double d : k.details) out += fmt::format(" {:a}", d);
        out += '\n';
      }
    if (after) out += after();
    return out;
  });
}

}  // namespace hwsim::test
