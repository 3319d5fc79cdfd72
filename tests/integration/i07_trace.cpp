// --trace FILE writes the kernel timeline of a workload run as a Chrome trace: a "steps" track and
// a "kernels" track whose events match the kernels of the --json document, in order and time.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: --trace writes the kernel timeline as a Chrome trace") {
  auto trace = scratch_dir() / "trace.json";
  auto document = scratch_dir() / "run.json";
  CliRun r = run_hwsim("--chip configs/h100.toml -w decode_llama8b:layers=2 -q --trace '" + trace.string() +
                       "' --json '" + document.string() + "'");
  REQUIRE(r.exit_code == 0);
  auto events = nlohmann::json::parse(read_text(trace))["traceEvents"];
  auto kernels = nlohmann::json::parse(read_text(document))["result"]["steps"][0]["kernels"];
  std::vector<nlohmann::json> kernel_events;
  for (const auto& e : events)
    if (e["ph"] == "X" && e["tid"] == 2 && e["name"] != "launch") kernel_events.push_back(e);
  REQUIRE(kernel_events.size() == kernels.size());
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    CHECK(kernel_events[i]["name"] == kernels[i]["name"]);
    // The event starts after the launch and ends where the kernel ends (microseconds).
    double start = kernels[i]["start"].get<double>() + kernels[i]["launch"].get<double>();
    CHECK(kernel_events[i]["ts"].get<double>() == doctest::Approx(start * 1e6));
    CHECK(kernel_events[i]["ts"].get<double>() + kernel_events[i]["dur"].get<double>() ==
          doctest::Approx(kernels[i]["end"].get<double>() * 1e6));
  }
}

TEST_CASE("cli: a failed run writes no trace") {
  auto trace = scratch_dir() / "no_trace.json";
  CliRun r = run_hwsim("--chip configs/h100.toml -w decode_llama8b:batch=0 -q --trace '" + trace.string() + "'");
  CHECK(r.exit_code == 4);
  CHECK_FALSE(std::filesystem::exists(trace));
}
