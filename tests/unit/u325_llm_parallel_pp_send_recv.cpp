// Between consecutive stages one send_recv (axis pp) of the microbatch's hidden states, on the
// sending stage, whose successors are the next stage's first ops.
#include <doctest/doctest.h>

#include "workloads/workload.h"

using namespace hwsim;

namespace {
void check(const std::string& spec, std::int64_t pp, double bytes, const std::vector<std::string>& first_ops) {
  Workload w = WorkloadCatalog::build(spec);
  const OpGraph& g = w.steps[0].graph;
  std::vector<OpVertex> sends;
  for (OpVertex v : execution_order(g))
    if (is_collective(g[v])) {
      const auto& c = std::get<CollectiveOp>(g[v].shape);
      CHECK(c.kind == CollectiveKind::send_recv);
      sends.push_back(v);
    }
  REQUIRE(sends.size() == std::size_t(pp - 1));
  for (std::size_t s = 0; s < sends.size(); ++s) {
    OpVertex v = sends[s];
    const auto& c = std::get<CollectiveOp>(g[v].shape);
    CHECK(g[v].stage == int(s));
    CHECK(c.axis == ParallelAxis::pp);
    CHECK(c.ranks == pp);
    CHECK(c.bytes == bytes);
    // Its input: the last op of its stage; its successors: the next stage's first ops.
    REQUIRE(boost::in_degree(v, g) == 1);
    CHECK(g[boost::source(*boost::in_edges(v, g).first, g)].stage == int(s));
    std::vector<std::string> successors;
    for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
      CHECK(g[boost::target(*e, g)].stage == int(s) + 1);
      successors.push_back(g[boost::target(*e, g)].name);
    }
    REQUIRE(!successors.empty());
    CHECK(successors.front() == first_ops[s]);
    // The next stage's first op in execution order waits for it.
    for (OpVertex u : execution_order(g))
      if (g[u].stage == int(s) + 1) {
        CHECK(g[u].name == first_ops[s]);
        break;
      }
  }
}
}  // namespace

TEST_CASE("llm parallel: pp-1 send_recvs carry tokens times hidden to the next stage's first op") {
  check("decode:model=llama3_8b,batch=2,context=64,pp=4", 4, 2.0 * 4096 * 2,
        {"L8.attn_norm", "L16.attn_norm", "L24.attn_norm"});
  check("prefill:model=llama3_8b,batch=2,prompt=32,pp=2", 2, 2.0 * 32 * 4096 * 2, {"L16.attn_norm"});
  check("decode:model=llama3_8b,batch=2,context=64,pp=2,layers=3", 2, 2.0 * 4096 * 2, {"L2.attn_norm"});
  // The send_recv is named after the sending stage's last layer.
  Workload w = WorkloadCatalog::build("decode:model=llama3_8b,batch=1,context=8,pp=2");
  bool found = false;
  for (OpVertex v : execution_order(w.steps[0].graph)) found |= w.steps[0].graph[v].name == "L15.send_recv";
  CHECK(found);
}
