// Tensor parallelism on h200x2: decode_llama8b with tp=2 shards every weight matrix over the two
// GPUs, so each reads half the 16 GB of weights a memory-bound decode step is made of: faster than
// tp=1. Not twice as fast: each GPU still launches every kernel (the launch gaps do not shrink)
// and each layer adds two all_reduces on NVLink.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/json_run.h"

using namespace hwsim::test;

namespace {
nlohmann::json run_json(const std::string& args, const std::string& file) { return run_hwsim_json(args, file); }
}  // namespace

TEST_CASE("cli system: decode with tp=2 on h200x2 is faster than tp=1, and less than twice as fast") {
  auto tp1 = run_json("--system h200x2 -w decode_llama8b", "tp1.json");
  auto tp2 = run_json("--system h200x2 -w decode_llama8b:tp=2", "tp2.json");
  double t1 = tp1["result"]["seconds"].get<double>(), t2 = tp2["result"]["seconds"].get<double>();
  CHECK(t2 < t1);
  CHECK(t2 > t1 / 2);
  CHECK(tp2["result"]["system"]["devices_used"] == 2);
  CHECK(tp2["result"]["system"]["layout"] == "tp=2 pp=1 ep=1 dp=1");
  CHECK(tp2["result"]["system"]["collective_seconds"].get<double>() > 0);
  CHECK(tp1["result"]["system"]["devices_used"] == 1);
}
