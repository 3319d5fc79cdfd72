// What a newcomer tries first works as written, or says in one line what would (issue 39): a
// misspelt required field is named, a plain byte count is bytes, a shipped chip is found by name
// from `extends`, chips compare in one sweep, a workload field given as a chip key says where it
// goes, the listings explain themselves, and the report says what --set changed.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "tests/fixtures/json_run.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("newcomer: a misspelt required field is named, not reported missing") {
  CliRun r = run_hwsim("--chip h100 -w decode:model=llama3_8b,contxt=512");
  CHECK(r.exit_code == 4);
  CHECK(contains(r.err, "contxt: unknown field (did you mean context?)"));
  CHECK(lines_of(r.err).size() == 1);
}

TEST_CASE("newcomer: a collective's plain number of bytes is bytes, as nccl-tests takes it") {
  auto plain = run_hwsim_json("--system h200x2 -w collective:op=all_reduce,bytes=1048576", "plain.json");
  auto unit = run_hwsim_json("--system h200x2 -w collective:op=all_reduce,bytes=1MiB", "unit.json");
  CHECK(plain["result"]["collective"]["bytes"].get<double>() == 1048576);
  CHECK(plain["result"]["seconds"] == unit["result"]["seconds"]);
}

TEST_CASE("newcomer: extends names a shipped chip from a file anywhere") {
  auto dir = scratch_dir() / "mine";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "fast.toml") << "extends = \"h100\"\nname = \"fast\"\n[memory.hbm]\nbandwidth = \"4.8 TB/s\"\n";
  auto doc = run_hwsim_json("--chip " + (dir / "fast.toml").string() + " -w decode_llama8b", "fast.json");
  CHECK(doc["config"]["memory"]["hbm"]["bandwidth"] == "4.8 TB/s");
  CHECK(doc["config"]["gpu"]["sm_count"] == 132);  // the rest from the shipped H100
  CliRun r;
  std::ofstream(dir / "missing.toml") << "extends = \"h1000\"\n";
  r = run_hwsim("--chip " + (dir / "missing.toml").string() + " -w decode_llama8b");
  CHECK(r.exit_code == 3);
  CHECK(contains(r.err, "extends: no such file 'h1000'"));
}

TEST_CASE("newcomer: a sweep compares chips, and a workload field is pointed to its place") {
  CliRun r = run_hwsim("sweep --vary chip=h100,h200 -w decode_llama8b");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(contains(r.out, "0,h100,ok,"));
  CHECK(contains(r.out, "1,h200,ok,"));
  r = run_hwsim("sweep --chip h100 --vary batch=1,2 -w decode_llama8b");
  CHECK(r.exit_code == 3);
  CHECK(contains(r.err, "did you mean --vary workload.batch?"));
  r = run_hwsim("--chip h100 -w decode_llama8b --set workload.batch=16");
  CHECK(r.exit_code == 3);
  CHECK(contains(r.err, "-w NAME:batch=16"));
  r = run_hwsim("sweep --chip h100 --set workload.batch=16 --vary memory.hbm.bandwidth=3TB/s,4TB/s -w decode_llama8b");
  CHECK(r.exit_code == 0);
  r = run_hwsim("sweep --vary chip=h100,h2000 -w decode_llama8b");
  CHECK(r.exit_code == 3);
  CHECK(contains(r.err, "h2000"));
}

TEST_CASE("newcomer: the listings explain themselves") {
  CliRun kinds = run_hwsim("list kinds");
  CHECK(contains(kinds.out, "gemm               one cuBLAS-chosen matrix multiply"));
  CliRun kernels = run_hwsim("list kernels");
  CHECK(contains(kernels.out, "workloads/kernels/vector_add.hwk"));
  CHECK(contains(kernels.out, "--kernel workloads/kernels/vector_add.hwk"));
  CliRun workloads = run_hwsim("list workloads");
  for (const char* field : {"draft=", "k=", "accept=", "preemption=", "swap_space=", "tp=", "dp=", "disaggregate=",
                            "prefill_tp=", "decode_tp=", "router=", "kv_blocks="})
    CHECK_MESSAGE(contains(workloads.out, field), field << " is not listed for serve");
}

TEST_CASE("newcomer: the report says what --set changed, and hints --json only when not given") {
  CliRun r = run_hwsim("--chip h100 -w decode_llama8b --set memory.hbm.bandwidth=4.8TB/s");
  CHECK(contains(r.out, "set memory.hbm.bandwidth=4.8TB/s"));
  CHECK(contains(r.out, "--json FILE"));
  CHECK(contains(r.out, "most time above its floor first"));
  r = run_hwsim("--chip h100 -w decode_llama8b --json " + (scratch_dir() / "d.json").string());
  CHECK_FALSE(contains(r.out, "--json FILE"));
}

TEST_CASE("newcomer: a preset that does not fit says what would") {
  CliRun r = run_hwsim("--system dgx_h100 -w train_llama70b");
  CHECK(r.exit_code == 4);
  CHECK(contains(r.err, "each device of stage 0 holds"));
  CHECK(contains(r.err, "zero="));
}

TEST_CASE("newcomer: a microcontroller's memories are sized in KiB") {
  CliRun r = run_hwsim("--chip cortex_m55_u55 -w kws_dscnn");
  CHECK(contains(r.out, "KiB"));
  CHECK_FALSE(contains(r.out, "32.8 kB"));
}

TEST_CASE("newcomer: list params --chip shows what a chip sets and where from") {
  CliRun r = run_hwsim("list params --chip h100");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "gpu.sm_count"));
  CHECK(contains(r.out, "configs/h100.toml:"));
  CHECK(contains(r.out, "(default)"));
}

TEST_CASE("newcomer: W8A8 (fp8 weights and activations) runs as written, attention in bf16") {
  for (const char* w : {"decode_llama8b:weights=fp8,act=fp8", "prefill_llama8b:weights=fp8,act=fp8"}) {
    CliRun r = run_hwsim(std::string("--chip h100 -w ") + w + " --quiet");
    CHECK_MESSAGE(r.exit_code == 0, w << ": " << r.err);
  }
}

TEST_CASE("newcomer: a pipeline's trace never overlaps two slices on one track") {
  auto trace = scratch_dir() / "pp.json";
  CliRun r = run_hwsim("--system dgx_h100 -w decode:model=llama3_70b,batch=8,context=2048,pp=4,tp=2,microbatches=4 "
                       "--quiet --trace " + trace.string());
  REQUIRE(r.exit_code == 0);
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> tracks;
  for (const auto& e : nlohmann::json::parse(read_text(trace))["traceEvents"])
    if (e["ph"] == "X") tracks[{e["pid"], e["tid"]}].push_back({e["ts"], e["ts"].get<double>() + e["dur"].get<double>()});
  int partial = 0;
  for (auto& [track, slices] : tracks) {
    std::sort(slices.begin(), slices.end());
    for (std::size_t i = 1; i < slices.size(); ++i)  // overlapping, but not nested inside the one before
      partial += slices[i].first < slices[i - 1].second - 1e-6 && slices[i].second > slices[i - 1].second + 1e-6;
  }
  CHECK(partial == 0);
}
