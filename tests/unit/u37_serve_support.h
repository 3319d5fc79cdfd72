#pragma once
// Helpers for the serving tests (u370–u389): a serve run on a real chip or system in a forked child
// (SystemC elaborates once per process), its numbers back as text.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ops/device.h"
#include "run/serving/serving_deployment.h"
#include "run/simulate.h"
#include "run/simulate.h"
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

// Every serving number of `spec` on `chip` (config overrides `sets`) as text: hex floats, bit-exact.
inline std::string serve_numbers(const std::string& chip, const std::string& spec, const std::vector<std::string>& sets = {}) {
  return run_isolated([&] {
    Config config = load_chip(chip_file(chip), sets);
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

// `format` of the serving metrics of `spec` on `chip` with config overrides `sets`, run in a child.
template <class Format>
std::string serve_formatted(const std::string& chip, const std::string& spec, const std::vector<std::string>& sets,
                            Format format) {
  return run_isolated([&] {
    Config config = load_chip(chip_file(chip), sets);
    return format(simulate(config, WorkloadCatalog::build(spec)).serving);
  });
}

// The same on a shipped system (configs/systems/NAME.toml).
template <class Format>
std::string serve_on_system(const std::string& system, const std::string& spec, Format format) {
  return run_isolated([&] {
    Config sys = load_system_config(std::string(HWSIM_SOURCE_DIR) + "/configs/systems/" + system + ".toml", {});
    Config chip = load_chip(sys.text("system.chip"), {});
    return format(simulate_system(sys, chip, WorkloadCatalog::build(spec)).serving);
  });
}

// Every step as "decodes prefill_tokens kv_blocks_used", one a line, after "pre P steps S".
inline std::string step_lines(const ServingMetrics& m) {
  std::string s = fmt::format("pre {} steps {}\n", m.preemptions, m.steps.size());
  for (const auto& st : m.steps) s += fmt::format("{} {} {}\n", st.decodes, st.prefill_tokens, st.kv_blocks_used);
  return s;
}

// The i-th (0-based) whitespace-separated word of `line` as a number (hex floats too).
inline double field(const std::string& line, int i) {
  std::istringstream in(line);
  std::string w;
  for (int k = 0; k <= i; ++k) in >> w;
  return std::strtod(w.c_str(), nullptr);
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
