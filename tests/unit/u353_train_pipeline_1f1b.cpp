// Pipeline-parallel training: every stage's ops in execution order follow 1F1B (warm-up forwards,
// then one forward and one backward alternately, then the remaining backwards); the gradient
// goes back over a send_recv of the forward's bytes; buckets and the optimizer are per stage.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "workloads/workload.h"

using namespace hwsim;

namespace {
// The stage's task sequence: "F<j>" at each micro-batch's first forward op, "B<j>" at its first
// backward op (forward ops of a micro-batch are contiguous in a stage's order, so are backward ops).
std::vector<std::string> tasks(const OpGraph& g, int stage) {
  std::vector<std::string> out;
  for (OpVertex v : execution_order(g)) {
    const Op& op = g[v];
    if (op.stage != stage || op.name.rfind("mb", 0) != 0) continue;
    std::string j = op.name.substr(2, op.name.find('.') - 2);
    std::string rest = op.name.substr(op.name.find('.') + 1);
    if (rest.rfind("grad.", 0) == 0) continue;
    std::string t = (rest.rfind("bwd.", 0) == 0 || rest.rfind("recompute.", 0) == 0 ? "B" : "F") + j;
    if (out.empty() || out.back() != t) out.push_back(t);
  }
  return out;
}
}  // namespace

TEST_CASE("train pp=2, 4 micro-batches: 1F1B on each stage") {
  Workload w = WorkloadCatalog::build("train:model=llama3_8b,layers=4,batch=4,seq=64,pp=2,microbatches=4,checkpoint=full");
  const OpGraph& g = w.steps.at(0).graph;
  CHECK(tasks(g, 0) == std::vector<std::string>{"F0", "F1", "B0", "F2", "B1", "F3", "B2", "B3"});
  CHECK(tasks(g, 1) == std::vector<std::string>{"F0", "B0", "F1", "B1", "F2", "B2", "F3", "B3"});
  CHECK(w.stage_footprint.size() == 2);
}

TEST_CASE("train pp=2: the gradient send_recv, per-stage buckets and optimizers") {
  Workload w = WorkloadCatalog::build("train:model=llama3_8b,layers=2,batch=4,seq=64,pp=2,microbatches=2,dp=2");
  const OpGraph& g = w.steps.at(0).graph;
  int adams = 0, sends = 0;
  for (OpVertex v : execution_order(g)) {
    const Op& op = g[v];
    if (op.name == "optimizer.adam") ++adams;
    if (op.name == "mb1.bwd.L0.send_recv") {
      ++sends;
      CHECK(op.stage == 0);
      const auto& c = std::get<CollectiveOp>(op.shape);
      CHECK(c.kind == CollectiveKind::send_recv);
      CHECK(c.bytes == 1 * 64 * 4096 * 2.0);  // one sequence (4 / dp 2 / 2 micro-batches) of 64 tokens
      for (auto [e, end] = boost::in_edges(v, g); e != end; ++e) CHECK(g[boost::source(*e, g)].stage == 1);
    }
    if (op.name.find("grad.bucket") != std::string::npos)
      for (auto [e, end] = boost::in_edges(v, g); e != end; ++e) CHECK(g[boost::source(*e, g)].stage == op.stage);
  }
  CHECK(adams == 2);
  CHECK(sends == 1);
}
