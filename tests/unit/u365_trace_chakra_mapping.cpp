// Chakra nodes become ops: collectives by comm_type with comm_size as the nccl-tests size (all-gather:
// comm_size is each rank's shard, so ×ranks), sends/receives as send_recv between two pipeline stages,
// COMP_NODEs as StreamOps re-simulated from tensor_size and num_ops; nodes without such work are left out.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "ops/op_graph.h"
#include "workloads/traces/chakra.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
std::string path(const std::string& name) { return std::string(HWSIM_SOURCE_DIR) + "/tests/data/" + name; }

std::string coll(int id, int comm_type, std::uint64_t size) {
  return R"({"id": ")" + std::to_string(id) + R"(", "name": "c)" + std::to_string(id) +
         R"(", "type": "COMM_COLL_NODE", "attr": [{"name": "comm_type", "int64Val": ")" + std::to_string(comm_type) +
         R"("}, {"name": "comm_size", "int64Val": ")" + std::to_string(size) + R"("}]})";
}
const Op& only(const Workload& w) {
  REQUIRE(boost::num_vertices(w.steps[0].graph) == 1);
  return w.steps[0].graph[0];
}
}  // namespace

TEST_CASE("chakra: comm_size is the nccl-tests size, all-gather's the shard of one rank") {
  struct Case {
    int comm_type;
    CollectiveKind kind;
    double factor;  // bytes = comm_size · factor on 4 ranks
  } cases[] = {{0, CollectiveKind::all_reduce, 1},     {1, CollectiveKind::broadcast, 1},
               {2, CollectiveKind::all_gather, 4},     {5, CollectiveKind::broadcast, 1},
               {6, CollectiveKind::all_to_all, 1},     {7, CollectiveKind::reduce_scatter, 1}};
  for (const auto& c : cases) {
    CAPTURE(c.comm_type);
    Workload w = chakra_workload(parse_chakra_json(coll(0, c.comm_type, 1 << 20), "t.json"), 4);
    const auto& op = std::get<CollectiveOp>(only(w).shape);
    CHECK(op.kind == c.kind);
    CHECK(op.bytes == (1 << 20) * c.factor);
    CHECK(op.ranks == 4);
    CHECK(op.axis == ParallelAxis::world);
    CHECK(w.parallel.dp == 4);
    CHECK(w.parallel.ranks() == 4);
  }
}

TEST_CASE("chakra: the sample step: six ops, the CPU op left out, compute as StreamOps") {
  Workload w = WorkloadCatalog::build("chakra:file=" + path("chakra_step.json"));
  CHECK(w.kind == "chakra");
  CHECK(w.parallel.ranks() == 2);  // ranks=2 by default
  REQUIRE(w.steps.size() == 1);
  CHECK(w.steps[0].label == "chakra_step.json");
  const OpGraph& g = w.steps[0].graph;
  REQUIRE(boost::num_vertices(g) == 6);
  auto order = execution_order(g);
  std::vector<std::string> names;
  for (auto v : order) names.push_back(g[v].name);
  CHECK(names == std::vector<std::string>{"forward", "all_gather_params", "backward", "all_reduce_grads",
                                          "reduce_scatter_grads", "optimizer_step"});
  const auto& fwd = std::get<StreamOp>(g[order[0]].shape);
  CHECK(fwd.flops == 2.0 * 4096 * 4096 * 8192);
  CHECK(fwd.bytes_read == 3.0 * 4096 * 8192 * 2);
  CHECK(fwd.bytes_written == 0);
  CHECK(g[order[0]].op_class == "compute");
  CHECK(std::get<CollectiveOp>(g[order[1]].shape).bytes == 2.0 * (16 << 20));  // all-gather: 2 ranks' shards
  CHECK(std::get<CollectiveOp>(g[order[3]].shape).bytes == 64 << 20);
  CHECK(std::get<CollectiveOp>(g[order[4]].shape).bytes == 32 << 20);

  Workload four = WorkloadCatalog::build("chakra:file=" + path("chakra_step.json") + ",ranks=4");
  CHECK(four.parallel.ranks() == 4);
  CHECK(std::get<CollectiveOp>(four.steps[0].graph[execution_order(four.steps[0].graph)[1]].shape).bytes ==
        4.0 * (16 << 20));
}

TEST_CASE("chakra: sends and receives are send_recv between two pipeline stages") {
  Workload w = WorkloadCatalog::build("chakra:file=" + path("chakra_p2p.json"));
  CHECK(w.parallel.pp == 2);
  CHECK(w.parallel.ranks() == 2);
  const OpGraph& g = w.steps[0].graph;
  REQUIRE(boost::num_vertices(g) == 3);
  auto order = execution_order(g);
  for (int i : {1, 2}) {
    const auto& c = std::get<CollectiveOp>(g[order[i]].shape);
    CHECK(c.kind == CollectiveKind::send_recv);
    CHECK(c.bytes == 8 << 20);
    CHECK(c.axis == ParallelAxis::pp);
    CHECK(c.ranks == 2);
    CHECK(c.reverse == (i == 2));  // the receive flows from the peer
  }
}

TEST_CASE("chakra: nodes without work are left out: metadata, memory, CPU ops, empty compute, barriers, 0 bytes") {
  std::string text =
      R"({"id": "1", "type": "METADATA_NODE"})"
      R"({"id": "2", "type": "MEM_LOAD_NODE", "attr": [{"name": "tensor_size", "uint64Val": "64"}]})"
      R"({"id": "3", "type": "COMP_NODE", "durationMicros": "50"})"
      R"({"id": "4", "type": "COMP_NODE", "attr": [{"name": "num_ops", "int64Val": "9"}, {"name": "is_cpu_op", "boolVal": true}]})"
      R"({"id": "5", "type": "COMM_COLL_NODE", "attr": [{"name": "comm_type", "int64Val": "9"}, {"name": "comm_size", "int64Val": "0"}]})"
      R"({"id": "6", "type": "COMM_COLL_NODE", "attr": [{"name": "comm_type", "int64Val": "0"}, {"name": "comm_size", "int64Val": "0"}]})" +
      coll(7, 0, 4096);
  Workload w = chakra_workload(parse_chakra_json(text, "t.json"), 2);
  CHECK(only(w).name == "c7");
}
