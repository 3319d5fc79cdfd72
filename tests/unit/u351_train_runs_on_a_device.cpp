// A one-device training step (dp=1: no collectives) runs on the single-device runner, on a GPU in
// both GPU framework passes and on a TPU with XLA fusion; the simulated FLOPs are the graph's.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "run/simulate.h"
#include "tests/fixtures/test_support.h"
#include "workloads/llm/train_workload.h"
#include "workloads/workload.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
void run_on(const std::string& chip, const std::string& kernels) {
  Config config = load_chip(chip_file(chip), {});
  Workload w = WorkloadCatalog::build("train:model=gpt2,layers=2,batch=2,seq=256,checkpoint=full,kernels=" + kernels);
  RunResult r = simulate(config, w);
  CHECK(r.seconds > 0);
  CHECK(r.seconds >= r.roofline_floor);
  auto f = train_facts(w);
  REQUIRE(f);
  CHECK(r.flops == doctest::Approx(f->executed_flops).epsilon(1e-9));  // gpt2 has no composite ops
}
}  // namespace

TEST_CASE("train: a small one-device step simulates on an H100 (eager)") { run_on("h100", "eager"); }
TEST_CASE("train: a small one-device step simulates on an H100 (fused)") { run_on("h100", "fused"); }
TEST_CASE("train: a small one-device step simulates on a TPU v5e (xla)") { run_on("tpu_v5e", "xla"); }
