// Per-device memory of a small model under each ZeRO stage, against hand arithmetic
// (Rajbhandari et al. 2020: 2Ψ weights + 2Ψ gradients + 12Ψ Adam state; stage 1 shards the
// optimizer, 2 also the gradients, 3 also the weights) and Korthikanti et al. 2022 activations.
#include <doctest/doctest.h>

#include "workloads/llm/train_memory.h"
#include "workloads/spec.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
// h = 256, 4 heads of 64 (2 KV heads), gated FFN 512, vocab 1000, 2 layers, rmsnorm, untied.
const std::string kModel = "model=llama3_8b,layers=2,hidden=256,heads=4,kv_heads=2,head_dim=64,ffn=512,vocab=1000";
const double h = 256, V = 1000;
const double layer = (4 + 2 * 2) * 64 * h + 4 * 64 * h + 3 * h * 512 + 2 * h;  // 590336
const double psi = 2 * layer + V * h + h + V * h;                               // 1692928

TrainRun run(const std::string& extra) {
  return parse_train_run(WorkloadSpec::parse("train:" + kModel + "," + extra));
}
}  // namespace

TEST_CASE("train memory: ZeRO stages 0-3 over dp=4 against hand-computed bytes") {
  CHECK(train_params(run("batch=4,seq=128").arch).total() == psi);
  const double dp = 4;
  const double sbh = 128 * 1 * h;                           // micro-batch 4 / dp 4 = 1 sequence
  const double activations = 2 * 34 * sbh + 4 * 128 * V;    // 2 layers + fp32 logits

  DeviceFootprint z0 = train_device_footprint(run("batch=4,seq=128,dp=4,zero=0"), 0);
  CHECK(z0.weights == 2 * psi);
  CHECK(z0.gradients == 2 * psi);
  CHECK(z0.optimizer == 12 * psi);
  CHECK(z0.activations == activations);
  CHECK(z0.kv_cache == 0);

  DeviceFootprint z1 = train_device_footprint(run("batch=4,seq=128,dp=4,zero=1"), 0);
  CHECK(z1.weights == 2 * psi);
  CHECK(z1.gradients == 2 * psi);
  CHECK(z1.optimizer == doctest::Approx(12 * psi / dp));

  DeviceFootprint z2 = train_device_footprint(run("batch=4,seq=128,dp=4,zero=2"), 0);
  CHECK(z2.weights == 2 * psi);
  CHECK(z2.gradients == doctest::Approx(2 * psi / dp));
  CHECK(z2.optimizer == doctest::Approx(12 * psi / dp));

  // ZeRO-3 also holds two gathered groups in 16 bits (the largest: a layer).
  DeviceFootprint z3 = train_device_footprint(run("batch=4,seq=128,dp=4,zero=3"), 0);
  CHECK(z3.weights == doctest::Approx(2 * psi / dp + 2 * layer * 2));
  CHECK(z3.gradients == doctest::Approx(2 * psi / dp));
  CHECK(z3.optimizer == doctest::Approx(12 * psi / dp));
  CHECK(z3.total() < z2.total());
  CHECK(z2.total() < z1.total());
  CHECK(z1.total() < z0.total());

  // The workload carries the same per-stage footprint and its layout.
  Workload w = WorkloadCatalog::build("train:" + kModel + ",batch=4,seq=128,dp=4,zero=2");
  REQUIRE(w.stage_footprint.size() == 1);
  CHECK(w.stage_footprint[0].total() == z2.total());
  CHECK(w.parallel.dp == 4);
  CHECK(w.parallel.ranks() == 4);
}

TEST_CASE("train memory: checkpoint=full keeps 2sbh per layer plus one layer's working set") {
  const double sbh = 128 * 2 * h;  // batch 2, one replica
  DeviceFootprint none = train_device_footprint(run("batch=2,seq=128"), 0);
  DeviceFootprint full = train_device_footprint(run("batch=2,seq=128,checkpoint=full"), 0);
  CHECK(none.activations == 2 * 34 * sbh + 4 * 128 * 2 * V);
  CHECK(full.activations == 2 * 2 * sbh + 34 * sbh + 4 * 128 * 2 * V);
  // fp32 activations double the coefficients (not the fp32 logits).
  DeviceFootprint fp32 = train_device_footprint(run("batch=2,seq=128,act=fp32"), 0);
  CHECK(fp32.activations == 2 * 2 * 34 * sbh + 4 * 128 * 2 * V);
}

TEST_CASE("train memory: tensor and pipeline parallel splits (memory model only)") {
  // tp=2: linear weights, embedding and head halve; norms stay whole. Sequence parallel: activations / 2.
  TrainRun tp = run("batch=2,seq=128,tp=2");
  const double layer_tp = ((4 + 2 * 2) * 64 * h + 4 * 64 * h + 3 * h * 512) / 2 + 2 * h;
  CHECK(train_stage_device_params(tp, 0) == 2 * layer_tp + V * h / 2 + h + V * h / 2);
  // pp=2 with 4 micro-batches: stage 0 holds the embedding and layer 0, stage 1 layer 1, the final
  // norm and the head; 1F1B keeps 2 micro-batches in flight on stage 0 and 1 on stage 1.
  TrainRun pp = run("batch=4,seq=128,pp=2,microbatches=4");
  CHECK(train_stage_device_params(pp, 0) == layer + V * h);
  CHECK(train_stage_device_params(pp, 1) == layer + h + V * h);
  const double sbh = 128 * 1 * h;
  CHECK(train_activation_bytes(pp, 0) == 2 * 34 * sbh);
  CHECK(train_activation_bytes(pp, 1) == 1 * 34 * sbh + 4 * 128 * V);
  CHECK(train_stage_footprints(pp).size() == 2);
}
