#pragma once
// Helpers for the serving tests (u370–u379): a serve run on a real chip in a forked child
// (SystemC elaborates once per process), its numbers back as text.
#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/serving_runner.h"
#include "app/simulate.h"
#include "sim/config/config.h"
#include "sim/engine/isolated_run.h"
#include "sim/registry.h"
#include "tests/fixtures/test_support.h"
#include "workloads/serve/serve_spec.h"
#include "workloads/workload.h"

namespace hwsim::test {

// Writes a CSV trace into the scratch folder and returns its path.
inline std::string write_trace(const std::string& name, const std::string& body) {
  auto path = scratch_dir() / name;
  std::ofstream(path) << body;
  return path.string();
}

// Every serving number of `spec` on `chip` as text: hex floats, bit-exact.
inline std::string serve_numbers(const std::string& chip, const std::string& spec) {
  return run_isolated([&] {
    Config config = load_config(chip_file(chip), {});
    RunResult r = simulate(config, WorkloadCatalog::build(spec));
    const ServingMetrics& m = r.serving;
    std::string out = fmt::format("steps {} kv {} dur {:a} ttft {:a} {:a} tpot {:a} itl {:a} e2e {:a} {:a} pre {}\n",
                                  m.engine_steps, m.kv_capacity_tokens, m.duration_s, m.ttft_s.mean, m.ttft_s.p99,
                                  m.tpot_s.mean, m.itl_s.mean, m.e2e_s.mean, m.e2e_s.p90, m.preemptions);
    for (const auto& q : m.per_request)
      out += fmt::format("req {} {:a} {:a} {:a} {:a}\n", q.id, q.arrival, q.first_scheduled, q.first_token, q.finish);
    for (const auto& s : m.steps) out += fmt::format("step {:a} {:a} {} {}\n", s.start, s.seconds, s.decodes, s.prefill_tokens);
    return out;
  });
}

// The value after `key ` on the first line starting with `prefix`.
inline std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  return out;
}

}  // namespace hwsim::test
