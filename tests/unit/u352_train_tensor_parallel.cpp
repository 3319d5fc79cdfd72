// Tensor-parallel training (Megatron f/g): the forward's tp all_reduces pass the gradient through,
// and each column-parallel GEMM's input gradient is all-reduced (async, same bytes), so the
// backward has one tp all_reduce per forward one; the loss is vocabulary-parallel (no logits
// gather); the parameters the graph attributes equal the memory model's.
#include <doctest/doctest.h>

#include <map>

#include "workloads/llm/train_memory.h"
#include "workloads/llm/train_step.h"
#include "workloads/spec.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
}  // namespace

TEST_CASE("train tp=2: one backward tp all_reduce per forward one, same bytes, async after dX") {
  Workload w = WorkloadCatalog::build("train:model=llama3_8b,layers=2,batch=2,seq=128,tp=2");
  CHECK(w.parallel.tp == 2);
  const OpGraph& g = w.steps.at(0).graph;
  std::map<std::string, double> forward, backward;  // layer-op class → bytes
  int forward_count = 0, backward_count = 0;
  for (OpVertex v : execution_order(g)) {
    const Op& op = g[v];
    CHECK(op.name.find("logits_all_gather") == std::string::npos);
    if (op.name.find("kv_append") != std::string::npos) FAIL("kv_append kept");
    auto* c = std::get_if<CollectiveOp>(&op.shape);
    if (!c || c->axis != ParallelAxis::tp || op.name.rfind("loss.", 0) == 0) continue;
    CHECK(c->kind == CollectiveKind::all_reduce);
    CHECK(c->ranks == 2);
    if (op.name.rfind("bwd.", 0) == 0) {
      ++backward_count;
      backward[op.name] = c->bytes;
      CHECK(c->async);
      CHECK(ends_with(op.name, ".dx_all_reduce"));
      // Its only input is the column-parallel GEMM's dX.
      auto [e, end] = boost::in_edges(v, g);
      REQUIRE(e != end);
      CHECK(ends_with(g[boost::source(*e, g)].name, ".dx"));
    } else {
      ++forward_count;
      forward[op.name] = c->bytes;
      CHECK(!c->async);
    }
  }
  // Per layer: attn/ffn all_reduce ↔ qkv_proj/gate_up dX all_reduce; embedding ↔ LM head.
  CHECK(forward_count == 2 * 2 + 1);
  CHECK(backward_count == forward_count);
  const double tokens_hidden_bytes = 2 * 128 * 4096 * 2.0;
  for (auto& [name, bytes] : forward) CHECK(bytes == tokens_hidden_bytes);
  for (auto& [name, bytes] : backward) CHECK(bytes == tokens_hidden_bytes);
  CHECK(backward.count("bwd.L0.qkv_proj.dx_all_reduce"));
  CHECK(backward.count("bwd.L1.gate_up.dx_all_reduce"));
  CHECK(backward.count("bwd.lm_head.dx_all_reduce"));
}

TEST_CASE("train tp=2: the vocabulary-parallel loss and the per-rank shapes") {
  Workload w = WorkloadCatalog::build("train:model=llama3_8b,layers=1,batch=1,seq=64,tp=2");
  const OpGraph& g = w.steps.at(0).graph;
  std::map<std::string, const Op*> ops;
  for (OpVertex v : execution_order(g)) ops[g[v].name] = &g[v];
  REQUIRE(ops.count("loss.max_all_reduce"));
  REQUIRE(ops.count("loss.sum_all_reduce"));
  CHECK(std::get<CollectiveOp>(ops["loss.max_all_reduce"]->shape).bytes == 64 * 4);
  CHECK(std::get<CollectiveOp>(ops["loss.sum_all_reduce"]->shape).bytes == 64 * 8);
  CHECK(std::get<GemmOp>(ops["lm_head"]->shape).m == 64);
  CHECK(std::get<GemmOp>(ops["lm_head"]->shape).n == 128256 / 2);
  CHECK(std::get<GemmOp>(ops["L0.qkv_proj"]->shape).n == (32 + 16) * 128 / 2);
  CHECK(std::get<GemmOp>(ops["bwd.L0.qkv_proj.dw"]->shape).m == (32 + 16) * 128 / 2);
}

TEST_CASE("train: the graph's parameters per stage equal the memory model's (tp, pp, MoE, tied)") {
  for (const char* spec : {"train:model=llama3_8b,layers=3,batch=2,seq=64,tp=2,pp=2,microbatches=2",
                           "train:model=mixtral_8x7b,layers=2,batch=1,seq=64,tp=2",
                           "train:model=gpt2,batch=2,seq=64,pp=2,microbatches=2",
                           "train:model=gpt2,batch=2,seq=64,tp=4"}) {
    CAPTURE(spec);
    TrainRun run = parse_train_run(WorkloadSpec::parse(spec));
    for (int s = 0; s < int(run.parallel.pp); ++s) {
      CAPTURE(s);
      CHECK(train_graph_params(run, s) == doctest::Approx(train_stage_device_params(run, s)).epsilon(1e-12));
    }
  }
}
