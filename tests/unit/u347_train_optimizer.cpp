// The Adam step: one StreamOp over the parameters this device updates (28 B and 16 FLOPs per
// parameter: reads fp32 master, bf16 gradient, m, v; writes master, m, v and the bf16 copy),
// sharded by ZeRO ≥ 1, then (zero 1/2) an all_gather of the updated bf16 weights over dp.
#include <doctest/doctest.h>

#include "workloads/llm/train_memory.h"
#include "workloads/llm/train_step.h"
#include "workloads/spec.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
const std::string kSmall = "train:model=llama3_8b,layers=2,seq=128,";
const Op* find(const Workload& w, const std::string& name) {
  const OpGraph& g = w.steps.at(0).graph;
  for (OpVertex v : execution_order(g))
    if (g[v].name == name) return &g[v];
  return nullptr;
}
}  // namespace

TEST_CASE("train optimizer: Adam bytes and FLOPs per parameter, sharded by ZeRO, gather after") {
  const double psi = train_params(parse_train_run(WorkloadSpec::parse(kSmall + "batch=4")).arch).total();
  CHECK(train_graph_params(parse_train_run(WorkloadSpec::parse(kSmall + "batch=4"))) == psi);
  for (int zero = 0; zero <= 3; ++zero) {
    CAPTURE(zero);
    Workload w = WorkloadCatalog::build(kSmall + "batch=4,dp=4,zero=" + std::to_string(zero));
    const Op* adam = find(w, "optimizer.adam");
    REQUIRE(adam);
    const double updated = zero >= 1 ? psi / 4 : psi;
    const auto& s = std::get<StreamOp>(adam->shape);
    CHECK(s.bytes_read == doctest::Approx(14 * updated));     // master 4 + grad 2 + m 4 + v 4
    CHECK(s.bytes_written == doctest::Approx(14 * updated));  // master 4 + m 4 + v 4 + bf16 copy 2
    CHECK(s.flops == doctest::Approx(kAdamFlopsPerParam * updated));
    const Op* gather = find(w, "optimizer.all_gather");
    if (zero == 1 || zero == 2) {
      REQUIRE(gather);
      const auto& c = std::get<CollectiveOp>(gather->shape);
      CHECK(c.kind == CollectiveKind::all_gather);
      CHECK(c.bytes == doctest::Approx(2 * psi));
      CHECK(c.axis == ParallelAxis::dp);
    } else {
      CHECK(gather == nullptr);
    }
  }
  // fp32 weights: no master copy; still 28 B per parameter.
  Workload fp32 = WorkloadCatalog::build(kSmall + "batch=4,weights=fp32");
  const auto& s = std::get<StreamOp>(find(fp32, "optimizer.adam")->shape);
  CHECK(s.bytes_read + s.bytes_written == doctest::Approx(28 * psi));
  CHECK(find(WorkloadCatalog::build(kSmall + "batch=4,zero=1"), "optimizer.all_gather") == nullptr);  // dp=1
}

TEST_CASE("train optimizer: the step ends with it, after every gradient collective") {
  // DDP (zero=0): every all-reduced bucket is copied back into .grad (grad.copy_out) first.
  Workload w = WorkloadCatalog::build(kSmall + "batch=2,dp=2");
  const OpGraph& g = w.steps.at(0).graph;
  auto order = execution_order(g);
  OpVertex adam = order.back();
  REQUIRE(g[adam].name == "optimizer.adam");
  OpVertex copy_out = order[order.size() - 2];
  REQUIRE(g[copy_out].name == "grad.copy_out");
  CHECK(boost::edge(copy_out, adam, g).second);
  int buckets = 0, from_buckets = 0;
  for (OpVertex v : order) buckets += is_collective(g[v]) && g[v].name.find("grad.bucket") != std::string::npos;
  for (auto [e, end] = boost::in_edges(copy_out, g); e != end; ++e)
    from_buckets += g[boost::source(*e, g)].name.find("grad.bucket") != std::string::npos;
  CHECK(buckets > 0);
  CHECK(from_buckets == buckets);
}
