// hwsim --kernel as a learner meets it: no --set needed (a kernel program chooses the warp model);
// the JSON carries hwsim, chip and energy like every other result; the report prints achieved
// bandwidth per level against its peak and the roofline; with --sample-sms the whole-kernel
// figures are printed apart from the sampled counts and marked as scaled.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli kernel: runs on the warp model without --set; JSON has hwsim, chip and energy") {
  auto json = scratch_dir() / "va.json";
  CliRun r = run_hwsim("--chip h100 --kernel workloads/kernels/vector_add.hwk --grid 4 --block 256 --json '" +
                       json.string() + "'");
  REQUIRE(r.exit_code == 0);
  std::ifstream in(json);
  auto doc = nlohmann::json::parse(in);
  CHECK(doc["level"] == "warp");
  CHECK(doc["hwsim"].is_string());
  CHECK(doc["chip"]["name"] == "H100 SXM5 80GB");
  CHECK(doc["config"]["gpu"]["core"]["model"] == "warp");
  CHECK(doc["result"]["energy"].get<double>() > 0);
  CHECK(doc["result"]["bandwidth"]["dram"].get<double>() > 0);
  CHECK(doc["result"]["percent_of_peak"]["dram"].get<double>() > 0);
  CHECK(doc["result"]["roofline"]["bound"] == "memory");
}

TEST_CASE("cli kernel: a --set asking for another core model is one line, exit 2") {
  CliRun r = run_hwsim("--chip h100 --set gpu.core.model=tile --kernel workloads/kernels/vector_add.hwk --grid 4 --block 256");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "--kernel runs on the warp model"));
  CHECK(lines_of(r.err).size() == 1);
}

TEST_CASE("cli kernel: the report shows bandwidth per level, % of peak, the roofline, energy and the clock") {
  CliRun r = run_hwsim("--chip h100 --kernel workloads/kernels/vector_add.hwk --grid 132 --block 256");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "% of peak"));
  CHECK(contains(r.out, "DRAM"));
  CHECK(contains(r.out, "roofline"));
  CHECK(contains(r.out, "memory-bound"));
  CHECK(contains(r.out, "energy"));
  CHECK(contains(r.out, "Nsight Compute"));  // the L2 hit rate says how it is counted
  CHECK(contains(r.out, "gpu.sm.clock"));    // which clock the peaks assume
}

TEST_CASE("cli kernel: --sample-sms prints whole-kernel figures, scaled and said so, apart from sampled ones") {
  // stream_read of 64 MiB (4 Mi float4) over 528 blocks, 2 SMs simulated
  CliRun r = run_hwsim("--chip h100 --kernel workloads/kernels/stream_read.hwk --grid 528 --block 256 --arg n=4194304 "
                       "--arg a=16777216:zeros --arg b=16777216:zeros --sample-sms 2");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "sampled"));
  CHECK(contains(r.out, "whole kernel"));
  // the DRAM row: 64 MiB = 67.1 MB for the whole kernel, marked *, not the 2 SMs' 1 MB
  bool found = false;
  for (const auto& line : lines_of(r.out))
    if (contains(line, "DRAM") && contains(line, "MB*")) found = contains(line, "67.") || contains(line, "66.") || contains(line, "68.");
  CHECK_MESSAGE(found, r.out);
}
