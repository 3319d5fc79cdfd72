// Data-parallel gradient reduction: DDP-style buckets, each an async collective on the dp axis
// issued after the backward ops that produce its gradients; all_reduce for zero 0/1,
// reduce_scatter for zero 2/3; no collective at all with dp=1.
#include <doctest/doctest.h>

#include <fmt/format.h>
#include <vector>

#include "workloads/llm/train_memory.h"
#include "workloads/spec.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
struct Buckets {
  std::vector<const Op*> ops;
  std::vector<OpVertex> vertices;
  double bytes = 0;
};
Buckets buckets(const Workload& w) {
  const OpGraph& g = w.steps.at(0).graph;
  Buckets b;
  for (OpVertex v : execution_order(g))
    if (is_collective(g[v]) && g[v].name.find("grad.bucket") != std::string::npos) {
      b.ops.push_back(&g[v]);
      b.vertices.push_back(v);
      b.bytes += std::get<CollectiveOp>(g[v].shape).bytes;
    }
  return b;
}
int collectives(const Workload& w) {
  const OpGraph& g = w.steps.at(0).graph;
  int n = 0;
  for (OpVertex v : execution_order(g)) n += is_collective(g[v]) ? 1 : 0;
  return n;
}
const std::string kSmall = "train:model=llama3_8b,layers=2,seq=128";
}  // namespace

TEST_CASE("train buckets: 25 MiB buckets over two llama3_8b layers, async all_reduce on dp") {
  // Gradients in backward order (bf16 bytes): lm_head 1.05 GB | final_norm 8 KB, L1.down 117 MB |
  // gate_up 235 MB | ffn_norm, o_proj 33.6 MB | qkv 50.3 MB | attn_norm, L0.down | gate_up |
  // ffn_norm, o_proj | qkv | attn_norm, embed: a bucket closes at the first gradient reaching 25 MiB.
  Workload w = WorkloadCatalog::build(kSmall + ",batch=2,dp=2,zero=0");
  Buckets b = buckets(w);
  CHECK(b.ops.size() == 10);
  const double psi = train_params(parse_train_run(WorkloadSpec::parse(kSmall + ",batch=2")).arch).total();
  CHECK(b.bytes == doctest::Approx(2 * psi));  // every bf16 gradient exactly once
  const OpGraph& g = w.steps.at(0).graph;
  for (std::size_t i = 0; i < b.ops.size(); ++i) {
    const auto& c = std::get<CollectiveOp>(b.ops[i]->shape);
    CHECK(c.kind == CollectiveKind::all_reduce);
    CHECK(c.async);
    CHECK(c.axis == ParallelAxis::dp);
    CHECK(c.ranks == 2);
    // It depends on its copy into the flat bucket (and the divide), which depends on backward ops
    // that produce gradients.
    REQUIRE(boost::in_degree(b.vertices[i], g) == 1);
    OpVertex copy_in = boost::source(*boost::in_edges(b.vertices[i], g).first, g);
    CHECK(g[copy_in].name == fmt::format("grad.bucket{}.copy_in", i));
    const auto& copy = std::get<StreamOp>(g[copy_in].shape);
    const double bytes = std::get<CollectiveOp>(b.ops[i]->shape).bytes;
    CHECK(copy.bytes_read == doctest::Approx(2 * bytes));  // the gradients, then the bucket to divide
    CHECK(copy.bytes_written == doctest::Approx(2 * bytes));
    CHECK(boost::in_degree(copy_in, g) > 0);
    for (auto [e, end] = boost::in_edges(copy_in, g); e != end; ++e)
      CHECK(g[boost::source(*e, g)].name.rfind("bwd.", 0) == 0);
  }
  CHECK(b.ops.front()->name == "grad.bucket0.all_reduce");
  // Issued during the backward: later backward ops follow the first bucket.
  auto order = execution_order(g);
  auto pos = [&](const std::string& n) {
    for (std::size_t i = 0; i < order.size(); ++i) if (g[order[i]].name == n) return i;
    FAIL("no op " << n);
    return std::size_t(0);
  };
  CHECK(pos("grad.bucket0.all_reduce") < pos("bwd.L0.qkv_proj.dx"));
}

TEST_CASE("train buckets: bucket size sets the count, zero 2/3 reduce-scatter, dp=1 has no collectives") {
  // One byte: one bucket per gradient-producing op: 6 per layer (4 GEMMs, 2 norms) + embed,
  // final_norm, lm_head.
  CHECK(buckets(WorkloadCatalog::build(kSmall + ",batch=2,dp=2,bucket=1B")).ops.size() == 6 * 2 + 3);
  CHECK(buckets(WorkloadCatalog::build(kSmall + ",batch=2,dp=2,bucket=1TB")).ops.size() == 1);
  Workload z2 = WorkloadCatalog::build(kSmall + ",batch=4,dp=4,zero=2");
  for (const Op* op : buckets(z2).ops) {
    CHECK(std::get<CollectiveOp>(op->shape).kind == CollectiveKind::reduce_scatter);
    CHECK(std::get<CollectiveOp>(op->shape).ranks == 4);
  }
  CHECK(collectives(WorkloadCatalog::build(kSmall + ",batch=2")) == 0);
  CHECK(collectives(WorkloadCatalog::build(kSmall + ",batch=2,zero=3,microbatches=2")) == 0);
}

TEST_CASE("train buckets: with micro-batches zero 0/1 reduce once, zero 2/3 every micro-batch") {
  Workload z1 = WorkloadCatalog::build(kSmall + ",dp=2,microbatches=2,batch=4,zero=1");
  Buckets b1 = buckets(z1);
  REQUIRE(!b1.ops.empty());
  for (const Op* op : b1.ops) CHECK(op->name.rfind("mb1.grad.bucket", 0) == 0);
  Workload z2 = WorkloadCatalog::build(kSmall + ",dp=2,microbatches=2,batch=4,zero=2");
  Buckets b2 = buckets(z2);
  CHECK(b2.ops.size() == 2 * b1.ops.size());
  CHECK(b2.bytes == doctest::Approx(2 * b1.bytes));
}
