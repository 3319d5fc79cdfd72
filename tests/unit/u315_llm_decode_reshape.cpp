// A generate's decode steps after the first are reshaped from the step before (WorkloadStep::reshape,
// reshape_decode_step): the reshaped graph, after each framework pass, is the graph lowering and
// passing the step gives, op for op; and a generate run gives the same figures, bit for bit,
// with the reshape as without it.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <optional>

#include "ops/device.h"
#include "run/simulate.h"
#include "ops/tensor_ids.h"
#include "sim/engine/isolated_run.h"
#include "workloads/llm/step_lowering.h"
#include "workloads/passes/framework_pass.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {

std::string attention_text(const AttentionOp& a) {
  return fmt::format("{} {} {} {} {} {} {} {} {} {} {}", a.batch, a.heads, a.kv_heads, a.head_dim, a.q_len, a.kv_len,
                     a.causal, a.window, int(a.dtype), int(a.kv_dtype), int(a.impl));
}

// Every op's name, class, stage, tensors, parts, FLOPs and bytes (attention ops: every field), and
// every edge, in execution order; then the tensor identities.
std::string graph_text(const OpGraph& g) {
  std::string out;
  for (OpVertex v : execution_order(g)) {
    const Op& op = g[v];
    out += fmt::format("{} {} {} {} {} {} {:a} {:a} {:a} {:a} |", op.name, op.op_class, op.stage, op.input_tensor,
                       op.output_tensor, op.parts.size(), op_flops(op), op_min_bytes(op), shape_flops(op),
                       shape_min_bytes(op));
    if (const auto* a = std::get_if<AttentionOp>(&op.shape)) out += attention_text(*a);
    for (auto [e, end] = boost::in_edges(v, g); e != end; ++e) out += fmt::format(" <{}", boost::source(*e, g));
    out += '\n';
  }
  for (const TensorIds& t : tensor_ids(g)) out += fmt::format("{},{} ", t.input, t.output);
  return out;
}

// The decode step at cache length `kv`, lowered and passed.
std::string fresh(const ModelArchitecture& arch, const Parallelism& p, const std::string& pass, std::int64_t kv) {
  OpGraph g = lower_parallel_llm_step(arch, LlmDtypes{}, LlmStepShape{4, 1, kv}, p);
  std::optional<OpGraph> r = FrameworkPasses::get(pass).apply(g);
  return graph_text(r ? *r : g);
}

// The decode step at `kv` - 1, lowered and passed, then reshaped to `kv`.
std::string reshaped(const ModelArchitecture& arch, const Parallelism& p, const std::string& pass, std::int64_t kv) {
  OpGraph g = lower_parallel_llm_step(arch, LlmDtypes{}, LlmStepShape{4, 1, kv - 1}, p);
  std::optional<OpGraph> r = FrameworkPasses::get(pass).apply(g);
  OpGraph& held = r ? *r : g;
  REQUIRE(reshape_decode_step(held, kv));
  return graph_text(held);
}

}  // namespace

TEST_CASE("decode reshape: the reshaped graph is the lowered one, for every framework and model form") {
  // Dense GQA, sliding window, mixture of experts, latent attention, learned positions.
  for (const char* model : {"llama3_8b", "mistral_7b", "mixtral_8x7b", "deepseek_v3", "gpt2"}) {
    ModelArchitecture arch = load_architecture(model);
    for (const char* pass : {"eager", "fused", "xla"}) {
      CAPTURE(model);
      CAPTURE(pass);
      CHECK(reshaped(arch, Parallelism{}, pass, 301) == fresh(arch, Parallelism{}, pass, 301));
    }
  }
  // A tensor-parallel device's graph (collectives between the ops), and microbatches.
  ModelArchitecture llama = load_architecture("llama3_8b");
  Parallelism tp;
  tp.tp = 2;
  Parallelism micro;
  micro.microbatches = 2;
  for (const Parallelism& p : {tp, micro}) CHECK(reshaped(llama, p, "eager", 77) == fresh(llama, p, "eager", 77));
}

TEST_CASE("decode reshape: a prefill graph is refused and left as it was") {
  ModelArchitecture arch = load_architecture("llama3_8b");
  OpGraph g = lower_llm_step(arch, LlmDtypes{}, LlmStepShape{1, 64, 64});
  std::string before = graph_text(g);
  CHECK_FALSE(reshape_decode_step(g, 65));
  CHECK(graph_text(g) == before);
  OpGraph none;  // no attention op at all
  CHECK_FALSE(reshape_decode_step(none, 65));
}

TEST_CASE("decode reshape: a generate gives the same figures with and without it") {
  auto run = [](bool reshape) {
    return run_isolated([&] {
      Workload w = WorkloadCatalog::build("generate:model=llama3_8b,batch=2,prompt=40,output=6,layers=2");
      int reshapable = 0;
      for (WorkloadStep& s : w.steps) {
        reshapable += s.reshape ? 1 : 0;
        if (!reshape) s.reshape = {};
      }
      RunResult r = simulate(load_chip("h100", {}), w);
      std::string out = fmt::format("{} {:a} {:a}", reshapable, r.seconds, r.energy);
      for (const StepResult& s : r.steps) out += fmt::format(" {} {:a}", s.label, s.seconds);
      for (const LevelTraffic& t : r.traffic) out += fmt::format(" {:a}", t.bytes);
      return out;
    });
  };
  std::string with = run(true), without = run(false);
  CHECK(with.rfind("4 ", 0) == 0);  // every decode step after the first
  CHECK(with == without);
}
