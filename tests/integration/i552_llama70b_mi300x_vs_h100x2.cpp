// The classic question: Llama-3-70B in bf16 on one MI300X or on two H100s (tensor parallel over
// NVLink). Guards that the answer cannot flip for a wrong reason: the 141 GB of weights fit one
// MI300X (192 GB) and not one H100 (80 GB); decode is memory-bound on both and no faster than
// reading every device's weights from HBM at the datasheet rate; two H100s, with 2 x 3.35 TB/s,
// decode faster than one MI300X with 5.3 TB/s, but by less than the bandwidth ratio allows.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/json_run.h"

using namespace hwsim::test;

namespace {
nlohmann::json run_json(const std::string& args, const std::string& name) { return run_hwsim_json(args, name); }
constexpr double kWeights = 141.1e9;  // 70.55 G parameters x 2 B
}  // namespace

TEST_CASE("llama70b bf16: fits one MI300X, not one H100") {
  CliRun h100 = run_hwsim("--chip h100 -w decode_llama70b");
  CHECK(h100.exit_code == 4);
  CHECK(contains(h100.err, "does not fit"));
  CliRun mi = run_hwsim("--chip mi300x -w decode_llama70b --quiet");
  CHECK(mi.exit_code == 0);
}

TEST_CASE("llama70b bf16 decode: one MI300X vs two H100 (tp=2), within physical bounds") {
  auto mi = run_json("--chip mi300x -w decode_llama70b", "mi.json");
  auto h2 = run_json("--system h100x2 -w decode_llama70b:tp=2", "h2.json");
  double t_mi = mi["result"]["seconds"].get<double>(), t_h2 = h2["result"]["seconds"].get<double>();
  CHECK(mi["result"]["bound"] == "memory");
  CHECK(h2["result"]["bound"] == "memory");
  // No faster than streaming the weights at the datasheet HBM rate.
  CHECK(t_mi >= kWeights / 5.3e12);
  CHECK(t_h2 >= kWeights / 2 / 3.35e12);
  // Every weight byte comes from HBM once per step (the 256 MiB Infinity Cache cannot hold them).
  CHECK(mi["result"]["bytes"]["hbm"].get<double>() >= 0.98 * kWeights);
  // Two H100s win decode on aggregate bandwidth (6.7 vs 5.3 TB/s), by at most that ratio plus
  // the overheads a second device does not halve (launches, all-reduces): 1.0 < t_mi / t_h2 < 1.6.
  CHECK(t_mi > t_h2);
  CHECK(t_mi / t_h2 < 1.6);
}

TEST_CASE("llama70b bf16 prefill (4 layers, 2048 tokens): compute-bound on both") {
  auto mi = run_json("--chip mi300x -w prefill:model=llama3_70b,prompt=2048,layers=4", "mip.json");
  auto h2 = run_json("--system h100x2 -w prefill:model=llama3_70b,prompt=2048,layers=4,tp=2", "h2p.json");
  CHECK(mi["result"]["bound"] == "compute");
  CHECK(h2["result"]["bound"] == "compute");
  double flops = mi["result"]["flops"].get<double>();
  // No faster than the dense bf16 peak: 1307.4 TFLOP/s on MI300X, 2 x 989.4 on two H100s (at
  // 1.98 GHz the model's H100 peak is 1070.5).
  CHECK(mi["result"]["seconds"].get<double>() >= flops / 1307.4e12);
  CHECK(h2["result"]["seconds"].get<double>() >= flops / 2 / 1070.6e12);
}
