// Chakra dependencies become graph edges: dataDeps and ctrlDeps alike, nodes placed in dependency
// order (ties by id) whatever their order in the file, and an op that waited on a left-out node waits
// on what that node waited on.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "ops/op_graph.h"
#include "workloads/traces/chakra.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
std::string comp(int id, const std::string& deps = "", const std::string& ctrl = "") {
  return R"({"id": ")" + std::to_string(id) + R"(", "name": "n)" + std::to_string(id) +
         R"(", "type": "COMP_NODE", "dataDeps": [)" + deps + R"(], "ctrlDeps": [)" + ctrl +
         R"(], "attr": [{"name": "num_ops", "int64Val": "1000"}, {"name": "tensor_size", "uint64Val": "4096"}]})";
}
// name → the names of its graph inputs.
std::map<std::string, std::set<std::string>> inputs_of(const Workload& w) {
  const OpGraph& g = w.steps[0].graph;
  std::map<std::string, std::set<std::string>> out;
  for (auto v : execution_order(g)) {
    auto& in = out[g[v].name];
    for (auto [e, end] = boost::in_edges(v, g); e != end; ++e) in.insert(g[boost::source(*e, g)].name);
  }
  return out;
}
std::vector<std::string> order_of(const Workload& w) {
  std::vector<std::string> names;
  for (auto v : execution_order(w.steps[0].graph)) names.push_back(w.steps[0].graph[v].name);
  return names;
}
}  // namespace

TEST_CASE("chakra: data and control dependencies are edges and each pair once") {
  Workload w = chakra_workload(parse_chakra_json(comp(0) + comp(1, "\"0\"") + comp(2, "\"0\"", "\"1\", \"0\""), "t.json"), 2);
  auto in = inputs_of(w);
  CHECK(in["n0"].empty());
  CHECK(in["n1"] == std::set<std::string>{"n0"});
  CHECK(in["n2"] == std::set<std::string>{"n0", "n1"});
  CHECK(boost::num_edges(w.steps[0].graph) == 3);  // n0→n2 once, though named twice
}

TEST_CASE("chakra: nodes listed out of order run in dependency order, ties by id") {
  // File order 9, 4, 7, 2: 9 needs 7, 7 needs 2; 4 needs nothing.
  Workload w = chakra_workload(parse_chakra_json(comp(9, "\"7\"") + comp(4) + comp(7, "\"2\"") + comp(2), "t.json"), 2);
  CHECK(order_of(w) == std::vector<std::string>{"n2", "n4", "n7", "n9"});
  auto in = inputs_of(w);
  CHECK(in["n9"] == std::set<std::string>{"n7"});
  CHECK(in["n7"] == std::set<std::string>{"n2"});
}

TEST_CASE("chakra: a left-out node passes its own dependencies on") {
  // 3 (a CPU op) waits on 1 and 2; 4 waits on 3 → 4 waits on 1 and 2. 5 waits on a metadata node
  // that waits on nothing → 5 waits on nothing.
  std::string text = comp(1) + comp(2) +
                     R"({"id": "3", "type": "COMP_NODE", "dataDeps": ["1", "2"], "attr": [{"name": "is_cpu_op", "boolVal": true}]})" +
                     comp(4, "\"3\"") + R"({"id": "6", "type": "METADATA_NODE"})" + comp(5, "\"6\"");
  Workload w = chakra_workload(parse_chakra_json(text, "t.json"), 2);
  auto in = inputs_of(w);
  CHECK(in.size() == 4);
  CHECK(in["n4"] == std::set<std::string>{"n1", "n2"});
  CHECK(in["n5"].empty());
}

TEST_CASE("chakra: the sample's optimizer waits on both gradient collectives and, through the CPU op, on backward") {
  Workload w = WorkloadCatalog::build("chakra:file=" + std::string(HWSIM_SOURCE_DIR) + "/tests/data/chakra_step.json");
  auto in = inputs_of(w);
  CHECK(in["all_gather_params"] == std::set<std::string>{"forward"});
  CHECK(in["reduce_scatter_grads"] == std::set<std::string>{"backward"});  // a control dependency
  CHECK(in["optimizer_step"] == std::set<std::string>{"all_reduce_grads", "reduce_scatter_grads", "backward"});
}

TEST_CASE("chakra: a chain of left-out nodes after a wide fan-in shares one frontier (it copied n² vertices)") {
  // 20,000 ops fan into a metadata node, then a chain of 20,000 metadata nodes, then one op: the
  // op waits on the 20,000. Copying the frontier down the chain held 4·10^8 vertices (3.2 GB).
  const int wide = 20000;
  std::string text;
  std::string fan;
  for (int i = 0; i < wide; ++i) {
    text += comp(i) + "\n";
    fan += (i ? ", \"" : "\"") + std::to_string(i) + "\"";
  }
  text += R"({"id": ")" + std::to_string(wide) + R"(", "type": "METADATA_NODE", "dataDeps": [)" + fan + "]}\n";
  for (int k = 1; k <= wide; ++k)
    text += R"({"id": ")" + std::to_string(wide + k) + R"(", "type": "METADATA_NODE", "dataDeps": [")" +
            std::to_string(wide + k - 1) + "\"]}\n";
  text += comp(3 * wide, "\"" + std::to_string(2 * wide) + "\"") + "\n";
  Workload w = chakra_workload(parse_chakra_json(text, "t.json"), 2);
  const OpGraph& g = w.steps[0].graph;
  CHECK(boost::num_vertices(g) == std::size_t(wide + 1));
  CHECK(boost::num_edges(g) == std::size_t(wide));  // the last op waits on every one of the wide ops
}
