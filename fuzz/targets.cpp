#include "ops/device.h"
#include "fuzz/targets.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "sim/measurement/measurement.h"
#include "models/gpu/warp/parser.h"
#include "models/gpu/warp/ptx_reader.h"
#include "sim/config/config.h"
#include "sim/error.h"
#include "sim/memory_budget.h"
#include "sim/units.h"
#include "app/sweep/sweep_file.h"
#include "app/sweep/sweep_spec.h"
#include "workloads/serve/request_files.h"
#include "workloads/spec.h"
#include "workloads/tiny/tiny_model.h"
#include "workloads/traces/chakra.h"
#include "workloads/workload.h"

namespace hwsim::fuzz {

namespace {
// Inputs larger than this say nothing new about a parser; they only slow a fuzzer down.
constexpr std::size_t kMaxInput = 1 << 16;
constexpr double kFuzzMemory = 256.0 * (1 << 20);

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "hwsim fuzz finding: %s\n", what.c_str());
  std::abort();
}

// Runs `body`; a UserError must be one line, anything else escaping is a finding. Each input is
// a run of its own: the memory charged by the last one is forgotten.
template <class F> void expect_one_line(F&& body) {
  // As a user with --max-memory 256MiB: inputs that would build millions of ops are refused in
  // moments, so the fuzzer spends its time on what parses, not on building legitimately huge work.
  set_memory_limit(kFuzzMemory);
  reset_memory_charges();
  try {
    body();
  } catch (const UserError& e) {
    std::string line = e.what();
    if (line.empty() || line.find('\n') != std::string::npos || line.size() > 4096)
      finding("a user error that is not one line: " + line.substr(0, 200));
  }
}

// A file holding `text`, private to this process (the loaders under test read files, as the CLI).
std::string scratch_file(const std::string& text, const char* suffix) {
  std::string path = std::string("/tmp/hwsim_fuzz_") + std::to_string(::getpid()) + suffix;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  return path;
}

// Every value a loaded configuration holds is inside its declared range (sim/config/param.h).
void check_ranges(const Config& c) {
  for (const auto& d : ParamCatalog::instance().all()) {
    if (!applies_to(d, c.kind())) continue;
    const ParamValue& v = c.value(d.key);
    bool numeric = d.type != ParamType::choice && d.type != ParamType::text && d.type != ParamType::boolean;
    if (numeric && !in_range(d, v.number)) finding("accepted out of range: " + d.key + " = " + std::to_string(v.number));
  }
}
}  // namespace

void units(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return;
  std::string text(reinterpret_cast<const char*>(data), size);
  std::string why;
  auto q = parse_quantity(text, &why);
  if (q && (!std::isfinite(q->value) || q->value < 0)) finding("a quantity that is negative or not finite: " + text);
  if (!q && (why.empty() || why.find('\n') != std::string::npos)) finding("a refusal without one line of reason");
  if (q) (void)format_quantity(q->value, q->dimension);
}

void config(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return;
  std::string text(reinterpret_cast<const char*>(data), size);
  // "TOML\n--\n--set lines": the file, then one override per line.
  std::vector<std::string> overrides;
  auto split = text.find("\n--\n");
  if (split != std::string::npos) {
    std::string rest = text.substr(split + 4);
    text.resize(split + 1);
    for (std::size_t at = 0; at <= rest.size();) {
      auto end = rest.find('\n', at);
      std::string line = rest.substr(at, end == std::string::npos ? std::string::npos : end - at);
      if (!line.empty()) overrides.push_back(line);
      if (end == std::string::npos) break;
      at = end + 1;
    }
  }
  std::string path = scratch_file(text, ".toml");
  expect_one_line([&] { check_ranges(load_chip(path, overrides)); });
  expect_one_line([&] { check_ranges(load_system_config(path, overrides)); });
  std::remove(path.c_str());
}

void workload_spec(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return;
  std::string text(reinterpret_cast<const char*>(data), size);
  expect_one_line([&] { (void)WorkloadCatalog::build(text); });
}

void kernel(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return;
  std::string text(reinterpret_cast<const char*>(data), size);
  expect_one_line([&] { (void)warp::disassemble(warp::parse_kernel(text, "fuzz.hwk")); });
  // the same bytes as a PTX module: its entries, then its first kernel (scheduled, registers estimated)
  expect_one_line([&] {
    auto entries = warp::list_ptx_entries(text, "fuzz.ptx");
    (void)warp::describe_entries(entries);
    if (!entries.empty()) (void)warp::disassemble(warp::parse_ptx(text, "fuzz.ptx", entries[0].name));
  });
}

void measurements(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return;
  std::string path = scratch_file(std::string(reinterpret_cast<const char*>(data), size), ".jsonl");
  expect_one_line([&] {
    for (const Measurement& m : read_measurements(path)) {
      auto adapter = MeasurementKinds::adapters().find(m.kind);
      if (adapter == MeasurementKinds::adapters().end()) continue;
      auto plan = adapter->second(m);
      // The spec a record makes is parsed and built as validate's child would (not simulated).
      if (plan && !plan->simulate) expect_one_line([&] { (void)WorkloadCatalog::build(plan->workload); });
    }
  });
  std::remove(path.c_str());
}

void sweep_file(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return;
  std::string path = scratch_file(std::string(reinterpret_cast<const char*>(data), size), ".toml");
  expect_one_line([&] {
    SweepSpec spec = load_sweep_file(path);
    double points = 1;
    for (const auto& a : spec.axes) points *= double(a.values.size());
    if (points <= 1e4 || spec.zip) (void)sweep_points(spec);  // the points of a small sweep, as it would run
  });
  std::remove(path.c_str());
}

void serve_trace(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return;
  std::string path = scratch_file(std::string(reinterpret_cast<const char*>(data), size), ".csv");
  expect_one_line([&] { (void)read_serve_trace(path); });
  expect_one_line([&] { (void)sample_dataset(read_serve_dataset(path), 64, 5.0, 1); });
  std::remove(path.c_str());
}

void chakra(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return;
  std::string text(reinterpret_cast<const char*>(data), size);
  expect_one_line([&] { (void)chakra_workload(parse_chakra_json(text, "fuzz.json"), 2); });
  // The same bytes as a binary .et file, read tolerantly (dependencies dropped, durations replayed).
  expect_one_line([&] { (void)chakra_workload(parse_chakra_et(text, "fuzz.et"), ChakraOptions{}); });
}

void tiny_model(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return;
  std::string path = scratch_file(std::string(reinterpret_cast<const char*>(data), size), ".toml");
  expect_one_line([&] { (void)load_tiny_model_file(path, "fuzz"); });
  std::remove(path.c_str());
}

Target target_named(const std::string& name) {
  if (name == "sweep_file") return sweep_file;
  if (name == "serve_trace") return serve_trace;
  if (name == "chakra") return chakra;
  if (name == "tiny_model") return tiny_model;
  if (name == "units") return units;
  if (name == "config") return config;
  if (name == "workload_spec") return workload_spec;
  if (name == "kernel") return kernel;
  if (name == "measurements") return measurements;
  return nullptr;
}

}  // namespace hwsim::fuzz
