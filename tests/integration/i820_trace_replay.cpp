// Collective traces replay on a system: an NCCL log (nccl_log:file=...) and a Chakra trace
// (chakra:file=...) run on --system h200x2 as one step, op after op; a broken log line is one error
// line naming file:line (exit 4); a trace needs a system, not one chip.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: an NCCL log replays on the H200x2 system, rank 0's calls one after another") {
  auto json = scratch_dir() / "nccl_replay.json";
  CliRun r = run_hwsim("--system h200x2 -w nccl_log:file=tests/data/nccl_h200x2_step.log --json '" + json.string() + "'");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(contains(r.out, "AllReduce@9"));
  CHECK(contains(r.out, "Send@19"));
  auto doc = nlohmann::json::parse(read_text(json));
  const auto& steps = doc["result"]["steps"];
  REQUIRE(steps.size() == 1);
  CHECK(steps[0]["label"] == "nccl_h200x2_step.log");
  const auto& kernels = steps[0]["kernels"];
  REQUIRE(kernels.size() == 11);
  const char* names[] = {"AllReduce@9", "AllGather@11", "ReduceScatter@13", "Broadcast@15", "Reduce@17", "Send@19",
                         "Recv@21",     "AllReduce@25", "AllGather@27",     "AllReduce@29", "AllReduce@31"};
  const double bytes[] = {8388608, 4194304, 8388608, 1024, 1048576, 1048576, 1048576, 4, 8388608, 16777216, 4};
  double previous_end = 0;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    CAPTURE(i);
    const auto& k = kernels[i];
    CHECK(k["name"] == names[i]);
    CHECK(k["details"]["bytes"].get<double>() == bytes[i]);
    CHECK(k["details"]["ranks"].get<double>() == 2);
    CHECK(k["seconds"].get<double>() > 0);
    CHECK(k["start"].get<double>() >= previous_end - 1e-12);  // a chain: each starts after the last ended
    previous_end = k["end"].get<double>();
  }
  // A bigger all-reduce takes longer than the 4-byte one, which pays latency only.
  CHECK(kernels[9]["seconds"].get<double>() > kernels[7]["seconds"].get<double>());
  CHECK(doc["result"]["seconds"].get<double>() >= previous_end - 1e-12);
}

TEST_CASE("cli: a Chakra trace replays on the H200x2 system: collectives on the links, compute on the devices") {
  auto json = scratch_dir() / "chakra_replay.json";
  CliRun r = run_hwsim("--system h200x2 -w chakra:file=tests/data/chakra_step.json --quiet --json '" + json.string() + "'");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto doc = nlohmann::json::parse(read_text(json));
  const auto& kernels = doc["result"]["steps"][0]["kernels"];
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& k : kernels) by_name[k["name"].get<std::string>()] = k;
  for (const char* name : {"forward", "all_gather_params", "backward", "all_reduce_grads", "reduce_scatter_grads",
                           "optimizer_step"})
    CHECK_MESSAGE(by_name.count(name), name);
  CHECK_FALSE(by_name.count("cpu_bookkeeping"));
  CHECK(by_name["all_gather_params"]["details"]["bytes"].get<double>() == 2.0 * 16 * 1024 * 1024);
  CHECK(by_name["backward"]["flops"].get<double>() == 4.0 * 4096 * 4096 * 8192);
  // The optimizer waits on both gradient collectives.
  CHECK(by_name["optimizer_step"]["start"].get<double>() >= by_name["all_reduce_grads"]["end"].get<double>() - 1e-12);
  CHECK(by_name["optimizer_step"]["start"].get<double>() >= by_name["reduce_scatter_grads"]["end"].get<double>() - 1e-12);
}

TEST_CASE("cli: a broken NCCL log line exits 4 with one line naming file:line and a trace needs a system") {
  auto log = scratch_dir() / "bad.log";
  {
    std::ofstream out(log);
    out << "vm:1:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 8 datatype 7 op 0 root 0 "
           "comm 0xc [nranks=2] stream 0x2\n"
        << "vm:1:1 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x1 count eight datatype 7 op 0 root 0 "
           "comm 0xc [nranks=2] stream 0x2\n";
  }
  CliRun bad = run_hwsim("--system h200x2 -w 'nccl_log:file=" + log.string() + "'");
  CHECK(bad.exit_code == 4);
  REQUIRE(lines_of(bad.err).size() == 1);
  CHECK(contains(bad.err, log.string() + ":2: AllReduce: count 'eight' is not a whole number"));

  CliRun wide = run_hwsim("--system h200x2 -w nccl_log:file=tests/data/nccl_h200x2_step.log,ranks=4");
  CHECK(wide.exit_code == 4);
  CHECK(contains(wide.err, "needs 4 devices"));

  CliRun chip = run_hwsim("--chip h200 -w chakra:file=tests/data/chakra_step.json");
  CHECK(chip.exit_code == 4);
  CHECK(contains(chip.err, "give a system of chips"));

  CliRun missing = run_hwsim("--system h200x2 -w nccl_log:file=tests/data/nccl_missing.log");
  CHECK(missing.exit_code == 5);
  CHECK(contains(missing.err, "tests/data/nccl_missing.log: cannot read NCCL log"));
}
