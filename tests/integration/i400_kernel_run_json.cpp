// hwsim --kernel: the JSON result carries result.cycles and result.warp_instructions, the text
// report names IPC, occupancy, SIMD efficiency and the dominant stall, --dump prints the buffer,
// --trace writes a Chrome trace.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli kernel: vector_add JSON, report, dump and trace") {
  auto json = scratch_dir() / "va.json";
  auto trace = scratch_dir() / "va_trace.json";
  CliRun r = run_hwsim("--chip configs/h100.toml --set gpu.core.model=warp --kernel workloads/kernels/vector_add.hwk "
                       "--grid 2 --block 64 --dump c --json '" + json.string() + "' --trace '" + trace.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "IPC"));
  CHECK(contains(r.out, "SIMD efficiency"));
  CHECK(contains(r.out, "occupancy"));
  CHECK(contains(r.out, "dominant stall: long_scoreboard"));
  CHECK(contains(r.out, "c (128 x f32): 0 2 4 6"));
  std::ifstream in(json);
  auto doc = nlohmann::json::parse(in);
  CHECK(doc["level"] == "warp");
  CHECK(doc["result"]["cycles"].get<long long>() > 0);
  CHECK(doc["result"]["warp_instructions"].get<long long>() == 48);
  std::ifstream tin(trace);
  auto t = nlohmann::json::parse(tin);
  CHECK(t["traceEvents"].size() > 0);
}
