// torch.autocast in a training step (workloads/llm/train_autocast.h): weights=fp32 with bf16
// activations adds the casts eager PyTorch launches, moves the residual stream and the loss to
// fp32; a norm's backward has its γ/β gradient kernel; the head's backward GEMMs read the logits'
// unaligned pitch (train_backward.h).
#include <doctest/doctest.h>

#include <map>

#include "models/gpu/tile/gemm_alignment.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
const Op* find(const OpGraph& g, const std::string& name) {
  for (OpVertex v : execution_order(g))
    if (g[v].name == name) return &g[v];
  return nullptr;
}
std::map<std::string, int> classes(const OpGraph& g) {
  std::map<std::string, int> n;
  for (OpVertex v : execution_order(g)) ++n[g[v].op_class];
  return n;
}
}  // namespace

TEST_CASE("train autocast: per GPT-2 layer, the casts PyTorch launches (measured: 123 widening casts per step)") {
  Workload w = WorkloadCatalog::build("train:model=gpt2,batch=2,seq=128,weights=fp32,act=bf16");
  const OpGraph& g = w.steps.at(0).graph;
  int widening = 0, narrowing = 0;
  for (OpVertex v : execution_order(g)) {
    if (g[v].op_class != "cast") continue;
    const auto& s = std::get<StreamOp>(g[v].shape);
    (s.bytes_written > s.bytes_read ? widening : narrowing) += 1;
    CHECK(s.unvectorized == (s.bytes_written > s.bytes_read));  // PyTorch's generic copy widens
  }
  // Widening (bf16 → fp32): 4 weight and 4 bias gradients and 2 cast inputs' gradients per layer,
  // the head's weight and input gradients, the logits: 12 · 10 + 2 + 1 = 123, the profiler's count
  // of direct_copy kernels per step on the H200 (data/measurements/h200_train.jsonl).
  CHECK(widening == 123);
  // Narrowing: 4 weights, 4 biases, 2 norm outputs per layer, the head's weight and input, the
  // logits' gradient.
  CHECK(narrowing == 12 * 10 + 2 + 1);
  const auto& qkv = std::get<GemmOp>(find(g, "L0.qkv_proj")->shape);
  CHECK(qkv.b == DType::bf16);  // the matmul runs on the cast copy
  const auto& cast = std::get<StreamOp>(find(g, "L0.qkv_proj.weight_cast")->shape);
  CHECK(cast.bytes_read == doctest::Approx(4.0 * qkv.n * qkv.k));
  CHECK(cast.bytes_written == doctest::Approx(2.0 * qkv.n * qkv.k));
}

TEST_CASE("train autocast: the loss in fp32 (cast, log_softmax, fill, backward, cast back)") {
  Workload w = WorkloadCatalog::build("train:model=gpt2,batch=2,seq=128,weights=fp32,act=bf16");
  const OpGraph& g = w.steps.at(0).graph;
  const double logits = 2.0 * 128 * 50257;
  const Op* loss = find(g, "loss");
  REQUIRE(loss);
  CHECK(loss->op_class == "softmax");
  CHECK(std::get<StreamOp>(loss->shape).bytes_read == doctest::Approx(4 * logits));
  for (const char* name : {"loss.logits_cast", "bwd.loss.grad_fill", "bwd.loss.log_softmax_backward",
                           "bwd.loss.logits_grad_cast"})
    CHECK_MESSAGE(find(g, name), name);
  CHECK(std::get<StreamOp>(find(g, "bwd.loss.log_softmax_backward")->shape).bytes_read ==
        doctest::Approx(8 * logits));
}

TEST_CASE("train autocast: off for bf16 weights; recompute casts again; a later micro-batch accumulates") {
  Workload plain = WorkloadCatalog::build("train:model=gpt2,batch=2,seq=128");
  CHECK(classes(plain.steps.at(0).graph).count("cast") == 0);
  Workload base = WorkloadCatalog::build("train:model=gpt2,batch=2,seq=128,weights=fp32,act=bf16");
  Workload ckpt = WorkloadCatalog::build("train:model=gpt2,batch=2,seq=128,weights=fp32,act=bf16,checkpoint=full");
  // Each recomputed layer casts its 4 weights, 4 biases and 2 inputs again.
  CHECK(classes(ckpt.steps.at(0).graph)["cast"] == classes(base.steps.at(0).graph)["cast"] + 12 * 10);
  Workload acc = WorkloadCatalog::build("train:model=gpt2,batch=4,seq=128,microbatches=2,weights=fp32,act=bf16");
  CHECK(find(acc.steps.at(0).graph, "mb1.bwd.L0.qkv_proj.grad_accumulate"));
  CHECK_FALSE(find(acc.steps.at(0).graph, "mb0.bwd.L0.qkv_proj.grad_accumulate"));
}

TEST_CASE("train: a norm's backward adds its γ/β gradient kernel (a reduction over the rows)") {
  Workload w = WorkloadCatalog::build("train:model=llama3_8b,layers=1,batch=1,seq=64");
  const OpGraph& g = w.steps.at(0).graph;
  const Op* grad = find(g, "bwd.L0.attn_norm.grad_weight");
  REQUIRE(grad);
  CHECK(grad->op_class == "reduction");
  const auto& s = std::get<StreamOp>(grad->shape);
  CHECK(s.bytes_read == doctest::Approx(2.0 * 64 * 4096 * 2));  // dY and x, bf16
  CHECK(s.bytes_written == doctest::Approx(4096 * 2));         // γ's gradient
}

TEST_CASE("train: the head's backward GEMMs read the logits at their unaligned pitch (GPT-2's 50257)") {
  Workload w = WorkloadCatalog::build("train:model=gpt2,batch=1,seq=128");
  const OpGraph& g = w.steps.at(0).graph;
  for (const char* name : {"lm_head", "bwd.lm_head.dx", "bwd.lm_head.dw"}) {
    CAPTURE(name);
    CHECK_FALSE(gemm_alignment(std::get<GemmOp>(find(g, name)->shape)).tma());
  }
  // An aligned GEMM's backward stays aligned.
  CHECK(gemm_alignment(std::get<GemmOp>(find(g, "bwd.L0.qkv_proj.dw")->shape)).tma());
  CHECK(gemm_alignment(std::get<GemmOp>(find(g, "bwd.L0.qkv_proj.dx")->shape)).tma());
}
