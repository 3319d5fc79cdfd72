// ZeRO-3: each parameter group (embed, L<i>, head) is all-gathered over dp before its forward and
// again before its backward, asynchronously one group ahead, the group's ops depending on it.
#include <doctest/doctest.h>

#include <map>

#include "workloads/llm/train_memory.h"
#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("train zero=3: per-group all_gathers in the forward and the backward, prefetched") {
  Workload w = WorkloadCatalog::build("train:model=llama3_8b,layers=3,batch=2,seq=128,dp=2,zero=3,checkpoint=full");
  const OpGraph& g = w.steps.at(0).graph;
  std::map<std::string, std::size_t> pos;
  std::map<std::string, OpVertex> vertex;
  std::size_t i = 0;
  int gathers = 0;
  for (OpVertex v : execution_order(g)) {
    pos[g[v].name] = i++;
    vertex[g[v].name] = v;
    if (is_collective(g[v]) && g[v].name.find("zero3.gather.") != std::string::npos) {
      ++gathers;
      const auto& c = std::get<CollectiveOp>(g[v].shape);
      CHECK(c.kind == CollectiveKind::all_gather);
      CHECK(c.async);
      CHECK(c.axis == ParallelAxis::dp);
    }
  }
  CHECK(gathers == 2 * (3 + 2));  // embed, 3 layers, head; forward and backward
  const double h = 4096, layer = (32 + 16) * 128 * h + 32 * 128 * h + 3 * h * 14336 + 2 * h;
  CHECK(std::get<CollectiveOp>(g[vertex.at("zero3.gather.L1")].shape).bytes == 2 * layer);
  // Prefetch: L1's gather is issued before L0's first op; every L1 GEMM depends on it.
  CHECK(pos.at("zero3.gather.L1") < pos.at("L0.attn_norm"));
  // through the gather's copy-out into the parameters, emitted when L1 is entered (not at the
  // prefetch, which would hold L0's compute for it).
  CHECK(boost::edge(vertex.at("zero3.gather.L1.copy_in"), vertex.at("zero3.gather.L1"), g).second);
  CHECK(boost::edge(vertex.at("zero3.gather.L1"), vertex.at("zero3.gather.L1.copy_out"), g).second);
  CHECK(boost::edge(vertex.at("zero3.gather.L1.copy_out"), vertex.at("L1.qkv_proj"), g).second);
  CHECK(pos.at("zero3.gather.L1.copy_out") > pos.at("L0.attn_norm"));
  CHECK(boost::edge(vertex.at("bwd.zero3.gather.L1.copy_out"), vertex.at("recompute.L1.qkv_proj"), g).second);
  CHECK(boost::edge(vertex.at("bwd.zero3.gather.L1.copy_out"), vertex.at("bwd.L1.qkv_proj.dw"), g).second);
  CHECK(pos.at("bwd.zero3.gather.L0") < pos.at("recompute.L1.attn_norm"));
  // No post-optimizer gather: the next step's forward gathers.
  CHECK(pos.count("optimizer.all_gather") == 0);
}
