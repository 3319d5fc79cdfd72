// With tp > 1 each layer has two all_reduces (after o_proj and down_proj) of tokens·hidden·act
// bytes, the embedding one, and the LM head one all_gather of the logits (sequences·vocab·act).
#include <doctest/doctest.h>

#include "workloads/workload.h"

using namespace hwsim;

namespace {
struct Seen {
  int all_reduce = 0, all_gather = 0, other = 0;
};
Seen check_collectives(const Workload& w, std::int64_t tp, double reduce_bytes, double gather_bytes) {
  Seen seen;
  const OpGraph& g = w.steps[0].graph;
  for (OpVertex v : execution_order(g)) {
    if (!is_collective(g[v])) continue;
    const auto& c = std::get<CollectiveOp>(g[v].shape);
    CHECK(g[v].op_class == "collective");
    CHECK(c.axis == ParallelAxis::tp);
    CHECK(c.ranks == tp);
    CHECK(c.dtype == DType::bf16);
    CHECK_FALSE(c.async);
    REQUIRE(boost::in_degree(v, g) == 1);
    const Op& producer = g[boost::source(*boost::in_edges(v, g).first, g)];
    if (c.kind == CollectiveKind::all_reduce) {
      ++seen.all_reduce;
      CHECK(c.bytes == reduce_bytes);
      bool after = producer.name == "embed" || producer.name.ends_with(".o_proj") || producer.name.ends_with(".down_proj");
      CHECK_MESSAGE(after, g[v].name << " after " << producer.name);
    } else if (c.kind == CollectiveKind::all_gather) {
      ++seen.all_gather;
      CHECK(g[v].name == "logits_all_gather");
      CHECK(producer.name == "lm_head");
      CHECK(c.bytes == gather_bytes);
      CHECK(boost::out_degree(v, g) == 0);
    } else {
      ++seen.other;
    }
  }
  return seen;
}
}  // namespace

TEST_CASE("llm parallel: tp adds two all_reduces per layer and one all_gather of the logits") {
  Workload decode = WorkloadCatalog::build("decode:model=llama3_8b,batch=4,context=100,tp=4");
  Seen d = check_collectives(decode, 4, 4.0 * 4096 * 2, 4.0 * 128256 * 2);
  CHECK(d.all_reduce == 2 * 32 + 1);
  CHECK(d.all_gather == 1);
  CHECK(d.other == 0);

  // Prefill: all_reduces carry every token, the gather only each sequence's last-token logits.
  Workload prefill = WorkloadCatalog::build("prefill:model=llama3_8b,batch=2,prompt=16,tp=2,layers=3");
  Seen p = check_collectives(prefill, 2, 2.0 * 16 * 4096 * 2, 2.0 * 128256 * 2);
  CHECK(p.all_reduce == 2 * 3 + 1);
  CHECK(p.all_gather == 1);

  // fp8 activations: half the bytes.
  Workload fp8 = WorkloadCatalog::build("decode:model=llama3_8b,batch=4,context=100,tp=2,act=fp8,layers=2");
  for (OpVertex v : execution_order(fp8.steps[0].graph))
    if (is_collective(fp8.steps[0].graph[v]) && fp8.steps[0].graph[v].name == "L1.attn_all_reduce")
      CHECK(std::get<CollectiveOp>(fp8.steps[0].graph[v].shape).bytes == 4.0 * 4096);
}
