// The work is split, not duplicated: FLOPs of one device of each stage, times tp, summed over
// the stages, equal the single-device FLOPs plus (tp - 1) times the replicated ops' FLOPs
// (embedding, norms, residuals, router, top-k), exactly.
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <set>

#include "workloads/workload.h"

using namespace hwsim;

namespace {
bool replicated(const std::string& name) {
  static const std::set<std::string> ops = {"embed", "final_norm", "attn_norm", "ffn_norm", "attn_residual",
                                            "ffn_residual", "router", "topk"};
  auto dot = name.find('.');
  return ops.count(dot == std::string::npos ? name : name.substr(dot + 1)) != 0;
}

void check(const std::string& base, std::int64_t tp, std::int64_t pp, const std::string& extra = "") {
  Workload one = WorkloadCatalog::build(base);
  Workload many = WorkloadCatalog::build(base + ",tp=" + std::to_string(tp) + ",pp=" + std::to_string(pp) + extra);
  REQUIRE(one.steps.size() == many.steps.size());
  for (std::size_t s = 0; s < one.steps.size(); ++s) {
    std::unique_ptr<OpGraph> h1, hn;  // a generate's decode steps are lowered just in time
    const OpGraph& g1 = step_graph(one.steps[s], h1);
    const OpGraph& gn = step_graph(many.steps[s], hn);
    double single = 0, repl = 0;
    for (OpVertex v : execution_order(g1)) {
      single += op_flops(g1[v]);
      if (replicated(g1[v].name)) repl += op_flops(g1[v]);
    }
    std::vector<double> per_stage(std::size_t(pp), 0.0);
    for (OpVertex v : execution_order(gn)) per_stage.at(std::size_t(gn[v].stage)) += op_flops(gn[v]);
    double sum = 0;
    for (double f : per_stage) {
      CHECK(f > 0);
      sum += f * double(tp);
    }
    CHECK_MESSAGE(sum - double(tp - 1) * repl == single, base << " tp=" << tp << " pp=" << pp);
  }
}
}  // namespace

TEST_CASE("llm parallel: FLOPs per device times tp and summed over stages equal the single-device total") {
  for (std::int64_t tp : {2, 8}) {
    check("decode:model=llama3_8b,batch=4,context=300", tp, 1);
    check("prefill:model=llama3_8b,batch=2,prompt=64", tp, 1);
    check("decode:model=mixtral_8x7b,batch=8,context=64,layers=4", tp, 1);
  }
  check("decode:model=llama3_8b,batch=4,context=300", 2, 2);
  check("decode:model=llama3_8b,batch=4,context=300", 1, 3);
  check("generate:model=llama3_8b,batch=2,prompt=32,output=2,layers=5", 4, 2);
  check("decode:model=llama3_8b,batch=4,context=300", 2, 2, ",microbatches=4");
  // layernorm, learned positions, tied head (a vocabulary tp divides: no padding)
  check("decode:model=gpt2,batch=2,context=100,vocab=50256", 4, 2);
}
