// Megatron's sequence parallelism (sequence_parallel=true with tp > 1) and selective recomputation
// (checkpoint=selective) in the training step: the graph's collectives and sharded ops, the
// activation memory (Korthikanti et al. 2022, Table 2: 34·sbh/t per layer with sequence
// parallelism, against (10 + 24/t)·sbh without), and what is refused.
#include <doctest/doctest.h>

#include <map>

#include "sim/error.h"
#include "workloads/llm/train_memory.h"
#include "workloads/spec.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
std::map<std::string, int> kinds(const OpGraph& g, std::map<std::string, const Op*>* by_name = nullptr) {
  std::map<std::string, int> n;
  for (OpVertex v : execution_order(g)) {
    if (by_name) (*by_name)[g[v].name] = &g[v];
    if (auto* c = std::get_if<CollectiveOp>(&g[v].shape)) ++n[std::string(collective_name(c->kind))];
  }
  return n;
}
TrainRun run(const std::string& spec) { return parse_train_run(WorkloadSpec::parse(spec)); }
}  // namespace

TEST_CASE("train sequence parallel: each tp all-reduce becomes a reduce-scatter and an all-gather; norms on T/tp") {
  const std::string base = "train:model=llama3_8b,layers=2,batch=2,seq=256,tp=4";
  std::map<std::string, const Op*> ops;
  auto plain = kinds(WorkloadCatalog::build(base).steps.at(0).graph);
  Workload w = WorkloadCatalog::build(base + ",sequence_parallel=true");
  auto sp = kinds(w.steps.at(0).graph, &ops);
  // Without: embed, 2 per layer forward, qkv/gate_up/lm_head dX backward, 2 loss reductions.
  CHECK(plain["all_reduce"] == 1 + 2 * 2 + 2 * 2 + 1 + 2);
  CHECK(sp["all_reduce"] == 2);  // the vocabulary-parallel loss's two only
  // Forward: the embedding's and each layer's two reduce-scatters, each layer's two all-gathers and
  // the head's; backward: each one's conjugate.
  CHECK(sp["reduce_scatter"] == (1 + 2 * 2) + (2 * 2 + 1));
  CHECK(sp["all_gather"] == (2 * 2 + 1) + (1 + 2 * 2));
  const auto& norm = std::get<StreamOp>(ops.at("L0.attn_norm")->shape);
  CHECK(norm.rows == 2 * 256 / 4);
  CHECK(ops.count("bwd.L0.qkv_proj.dx_all_reduce") == 0);
  // The same bytes reach the links: a reduce-scatter and an all-gather of the all-reduce's size.
  CHECK(std::get<CollectiveOp>(ops.at("L0.attn_reduce_scatter")->shape).bytes == doctest::Approx(512.0 * 4096 * 2));
}

TEST_CASE("train sequence parallel: activations 34·sbh/t per layer (Korthikanti Table 2)") {
  const std::string base = "train:model=llama3_8b,layers=4,batch=2,seq=2048,tp=8,pp=2,microbatches=2";
  const double sbh = 2048.0 * 4096, layers = 2, in_flight = 2;  // stage 0: 2 layers, pp − 0 in flight
  const double without = train_activation_bytes(run(base), 0), with = train_activation_bytes(run(base + ",sequence_parallel=true"), 0);
  CHECK(without == doctest::Approx(in_flight * layers * sbh * (10.0 + 24.0 / 8)));
  CHECK(with == doctest::Approx(in_flight * layers * sbh * 34.0 / 8));
  // Selective recomputation keeps the same bytes (FlashAttention keeps no scores to drop).
  CHECK(train_activation_bytes(run(base + ",sequence_parallel=true,checkpoint=selective"), 0) == doctest::Approx(with));
}

TEST_CASE("train checkpoint=selective: only each layer's attention runs again") {
  Workload w = WorkloadCatalog::build("train:model=llama3_8b,layers=3,batch=2,seq=128,microbatches=2,checkpoint=selective");
  int recomputed = 0, attention = 0;
  const OpGraph& g = w.steps.at(0).graph;
  for (OpVertex v : execution_order(g)) {
    if (g[v].name.find("recompute.") == std::string::npos) continue;
    ++recomputed;
    attention += g[v].op_class == "attention";
  }
  CHECK(recomputed == 3 * 2);  // 3 layers × 2 micro-batches
  CHECK(attention == recomputed);
}

TEST_CASE("train sequence parallel: refused without tp, with experts, or when the tokens do not split") {
  auto refused = [](const std::string& spec, const std::string& says) {
    CAPTURE(spec);
    try {
      run(spec);
      FAIL("accepted");
    } catch (const UserError& e) {
      CHECK(std::string(e.what()).find(says) != std::string::npos);
    }
  };
  refused("train:model=llama3_8b,layers=2,batch=2,seq=256,sequence_parallel=true", "needs tp > 1");
  refused("train:model=mixtral_8x7b,layers=2,batch=2,seq=256,tp=2,sequence_parallel=true", "experts");
  refused("train:model=llama3_8b,layers=2,batch=1,seq=255,tp=2,sequence_parallel=true", "do not split");
  refused("train:model=llama3_8b,layers=2,batch=1,seq=256,checkpoint=partial", "none, full or selective");
}

TEST_CASE("train sequence parallel: Llama-3.1-405B as Meta trained it now fits an 80 GB H100 (223 GB of activations before)") {
  const std::string spec = "train:model=llama3_1_405b,batch=2048,seq=8192,tp=8,pp=16,dp=64,microbatches=32,zero=2";
  const double before = train_device_footprint(run(spec), 0).activations;
  DeviceFootprint f = train_device_footprint(run(spec + ",sequence_parallel=true"), 0);
  CHECK(before > 200e9);
  CHECK(f.activations < 80e9);
  CHECK(f.total() < 85.0e9);  // an H100 SXM5's 80 GiB
}
