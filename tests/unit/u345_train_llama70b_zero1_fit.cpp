// "Will llama3_70b train on 8 A100-80GB with ZeRO-1?" No: the per-device footprint and the advice
// line, against hand arithmetic.
#include <doctest/doctest.h>

#include "workloads/llm/train_workload.h"
#include "workloads/llm/train_memory.h"
#include "workloads/spec.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
// Llama-3-70B: 80 layers, h 8192, 64 heads of 128 (8 KV heads), ffn 28672, vocab 128256, untied.
const double h = 8192, V = 128256;
const double layer = (64 + 16) * 128 * h + 64 * 128 * h + 3 * h * 28672 + 2 * h;  // 855,654,400
const double psi = 80 * layer + V * h + h + V * h;                                  // 70,553,706,496
}  // namespace

TEST_CASE("train: llama3_70b, 8 GPUs, ZeRO-1: 388 GB of model states and 93 GB of activations per GPU") {
  TrainRun run = parse_train_run(WorkloadSpec::parse("train:model=llama3_70b,batch=8,seq=4096,dp=8,zero=1"));
  CHECK(psi == 70553706496.0);
  CHECK(train_params(run.arch).total() == psi);
  DeviceFootprint f = train_device_footprint(run, 0);
  CHECK(f.weights == 2 * psi);                       // 141.1 GB
  CHECK(f.gradients == 2 * psi);                     // 141.1 GB
  CHECK(f.optimizer == doctest::Approx(12 * psi / 8));  // 105.8 GB
  CHECK(f.weights + f.gradients + f.optimizer == doctest::Approx(388.05e9).epsilon(1e-4));
  const double activations = 80 * 34 * 4096.0 * 1 * h + 4 * 4096.0 * V;  // 91.3 GB + 2.1 GB fp32 logits
  CHECK(f.activations == activations);
  CHECK(f.total() == doctest::Approx(481.4e9).epsilon(1e-3));

  // The built workload carries it for the runner's capacity check.
  Workload w = WorkloadCatalog::build("train:model=llama3_70b,batch=8,seq=4096,dp=8,zero=1");
  REQUIRE(w.stage_footprint.size() == 1);
  CHECK(w.stage_footprint[0].total() == f.total());
  CHECK(w.parallel.dp == 8);

  // ZeRO-3 still needs 2Ψ = 141 GB per GPU of model states: more than 80 GB whatever the stage.
  TrainRun z3 = parse_train_run(WorkloadSpec::parse("train:model=llama3_70b,batch=8,seq=4096,dp=8,zero=3"));
  DeviceFootprint f3 = train_device_footprint(z3, 0);
  CHECK(f3.gradients + f3.optimizer + 2 * psi / 8 == doctest::Approx(16 * psi / 8));
  CHECK(16 * psi / 8 > 80e9);

  std::string advice = train_fit_advice(w, 80e9);
  CAPTURE(advice);
  CHECK(advice.find('\n') == std::string::npos);
  CHECK(has(advice, "llama3_70b training (dp=8,zero=1,checkpoint=none, 8 devices"));
  CHECK(has(advice, "needs 481 GB per device"));
  CHECK(has(advice, "weights 141 GB, gradients 141 GB, optimizer 106 GB, activations 93.4 GB"));
  CHECK(has(advice, "80 GB available: does not fit"));
  CHECK(has(advice, "no layout fits on 8 devices: model states alone"));
  CHECK(has(advice, "16 B x 70.6 G parameters = 1.13 TB"));
  CHECK(has(advice, "at least 15 devices"));
  CHECK(has(advice, "fits on 16 devices with dp=8,tp=2,zero=3,checkpoint=full (batch=8, micro-batch 1: 79.8 GB per device)"));
}

TEST_CASE("train: a run that fits says so, the advice is empty for other workloads") {
  Workload w = WorkloadCatalog::build("train:model=gpt2,batch=8,seq=1024");
  std::string advice = train_fit_advice(w, 80e9);
  CHECK(has(advice, ": fits"));
  CHECK(train_fit_advice(WorkloadCatalog::build("decode_llama8b"), 80e9).empty());
  CHECK(!train_facts(WorkloadCatalog::build("decode_llama8b")));
}
