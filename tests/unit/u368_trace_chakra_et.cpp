// Chakra's binary .et: protobuf messages after their varint lengths, decoded field by field; bad
// bytes are one line naming the message and byte. Tolerant reading (the workload's default) drops
// dependencies on missing nodes and breaks cycles, counted in one warning; COMP_NODEs without
// num_ops or tensor_size replay their recorded durations. mlcommons/chakra's own PyTorch trace
// (tests/data/chakra.0.et) runs as given.
#include <doctest/doctest.h>

#include "ops/op_graph.h"
#include "sim/error.h"
#include "workloads/traces/chakra.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
std::string varint(std::uint64_t x) {
  std::string out;
  while (x >= 0x80) out.push_back(char(0x80 | (x & 0x7f))), x >>= 7;
  out.push_back(char(x));
  return out;
}
std::string key(int field, int wire) { return varint(std::uint64_t(field) << 3 | std::uint64_t(wire)); }
std::string bytes_field(int field, const std::string& b) { return key(field, 2) + varint(b.size()) + b; }
std::string int_field(int field, std::uint64_t v) { return key(field, 0) + varint(v); }
std::string attr(const std::string& name, std::uint64_t v, int field = 9) {
  return bytes_field(10, bytes_field(1, name) + int_field(field, v));
}
std::string packed(const std::vector<std::uint64_t>& ids) {
  std::string b;
  for (auto id : ids) b += varint(id);
  return b;
}
// A node message: id, name, type, data deps (packed), duration, attributes.
std::string node(std::uint64_t id, int type, const std::vector<std::uint64_t>& deps, std::uint64_t micros,
                 const std::string& attrs) {
  std::string m = int_field(1, id) + bytes_field(2, "n" + std::to_string(id)) + int_field(3, std::uint64_t(type));
  if (!deps.empty()) m += bytes_field(5, packed(deps));
  if (micros) m += int_field(7, micros);
  return m + attrs;
}
std::string framed(const std::vector<std::string>& messages) {
  std::string out;
  for (const auto& m : messages) out += varint(m.size()) + m;
  return out;
}
std::string metadata() {
  return bytes_field(1, "0.0.4") + bytes_field(2, bytes_field(1, "schema") + bytes_field(29, "1.0.2-chakra.0.0.4"));
}
std::string error_of(const std::string& bytes) {
  try {
    (void)chakra_workload(parse_chakra_et(bytes, "t.et"), ChakraOptions{});
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("chakra .et: the metadata, then nodes with their dependencies, durations and attributes") {
  std::string bytes = framed({metadata(), node(1, 4, {}, 120, attr("is_cpu_op", 0, 27)),
                              node(2, 7, {1}, 0, attr("comm_type", 0) + attr("comm_size", 1 << 20)),
                              node(3, 4, {1, 2}, 0, attr("num_ops", 1000) + attr("tensor_size", 4096, 13))});
  ChakraTrace t = parse_chakra_et(bytes, "t.et");
  CHECK(t.schema == "1.0.2-chakra.0.0.4");
  REQUIRE(t.nodes.size() == 3);
  CHECK(t.nodes[0].duration_micros == 120u);
  CHECK(t.nodes[1].type == ChakraNodeType::coll);
  CHECK(t.nodes[1].comm_size == std::uint64_t(1 << 20));
  CHECK(t.nodes[2].data_deps == std::vector<std::uint64_t>{1, 2});
  CHECK(t.nodes[2].tensor_size == 4096u);
  CHECK(chakra_node_place(t, t.nodes[1]) == "t.et: message 2: node 2 'n2'");
  Workload w = chakra_workload(t, ChakraOptions{});
  const OpGraph& g = w.steps[0].graph;
  REQUIRE(boost::num_vertices(g) == 3);
  auto order = execution_order(g);
  CHECK(std::get<RecordedOp>(g[order[0]].shape).seconds == doctest::Approx(120e-6));  // no num_ops: replayed
  CHECK(is_collective(g[order[1]]));
  CHECK(std::holds_alternative<StreamOp>(g[order[2]].shape));  // sized: re-simulated
  REQUIRE(w.warnings.size() == 1);
  CHECK(w.warnings[0].find("1 COMP_NODEs replayed at their recorded durations, 1 re-simulated") != std::string::npos);
}

TEST_CASE("chakra .et: tolerant reading drops missing dependencies and breaks cycles; strict refuses them") {
  // 2 waits on 99 (absent); 3 and 4 wait on each other.
  std::string bytes = framed({metadata(), node(2, 4, {99}, 10, ""), node(3, 4, {4}, 10, ""), node(4, 4, {3}, 10, "")});
  ChakraTrace t = parse_chakra_et(bytes, "t.et");
  Workload w = chakra_workload(t, ChakraOptions{});
  CHECK(boost::num_vertices(w.steps[0].graph) == 3);
  REQUIRE(w.warnings.size() == 1);
  CHECK(w.warnings[0].find("dropped 1 dependencies on nodes the trace lacks and 1 that closed cycles") != std::string::npos);
  ChakraOptions strict;
  strict.strict = true;
  CHECK_THROWS_WITH(chakra_workload(t, strict), doctest::Contains("depends on node 99, which the trace does not have"));
  ChakraTrace cyclic = parse_chakra_et(framed({node(3, 4, {4}, 10, ""), node(4, 4, {3}, 10, "")}), "t.et");
  CHECK_THROWS_WITH(chakra_workload(cyclic, strict), doctest::Contains("wait on a cycle of dependencies"));
}

TEST_CASE("chakra .et: compute=simulate leaves unsized COMP_NODEs out; a collective's host-side CPU node is left out") {
  std::string bytes = framed({node(1, 4, {}, 50, ""), node(2, 7, {1}, 80, attr("is_cpu_op", 1, 27)),
                              node(3, 7, {2}, 0, attr("comm_type", 5) + attr("comm_size", 4096))});
  ChakraTrace t = parse_chakra_et(bytes, "t.et");
  ChakraOptions o;
  o.compute = "simulate";
  Workload w = chakra_workload(t, o);
  CHECK(boost::num_vertices(w.steps[0].graph) == 1);  // the broadcast alone
  o.compute = "replay";
  CHECK(boost::num_vertices(chakra_workload(t, o).steps[0].graph) == 2);
  o.compute = "sometimes";
  CHECK_THROWS_WITH(chakra_workload(t, o), doctest::Contains("compute=sometimes: expected auto, replay or simulate"));
}

TEST_CASE("chakra .et: damaged bytes are one line naming the message and the byte") {
  std::string good = node(1, 4, {}, 5, "");
  CHECK(error_of(varint(50) + good).find("t.et: message 0 (byte 1 of the file): a field of 50 bytes runs past the end") !=
        std::string::npos);
  CHECK(error_of(framed({good + key(6, 3)})).find("wire type 3") != std::string::npos);
  CHECK(error_of(framed({good + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"})).find("varint") != std::string::npos);
  CHECK(error_of(framed({int_field(1, 7) + int_field(3, 12)})).find("node 7: type 12 is not a Chakra NodeType") !=
        std::string::npos);
  CHECK(error_of(framed({metadata()})).find("no Chakra nodes") != std::string::npos);
  CHECK(error_of(framed({node(1, 7, {}, 0, attr("comm_type", 0))})).find("no comm_size attribute") != std::string::npos);
  for (const std::string& e : {error_of(varint(50) + good), error_of(framed({good + key(6, 3)}))})
    CHECK(e.find('\n') == std::string::npos);
}

// The counts below were taken from the file's bytes by a separate decoder (a Python reading of the
// same wire format), not from hwsim's output: 1,052 COMP_NODEs that are not CPU ops and have a
// duration, 7 COMM_COLL_NODEs with comm_size, 1,277 dependency ids absent from the trace.
TEST_CASE("chakra .et: mlcommons/chakra's PyTorch trace runs as given") {
  Workload w = WorkloadCatalog::build("chakra:file=" + std::string(HWSIM_SOURCE_DIR) + "/tests/data/chakra.0.et");
  const OpGraph& g = w.steps[0].graph;
  int recorded = 0, collectives = 0;
  for (auto v : execution_order(g)) recorded += is_recorded(g[v]), collectives += is_collective(g[v]);
  CHECK(recorded == 1052);
  CHECK(collectives == 7);  // 2 broadcasts, 5 all-reduces; their 14 host-side c10d nodes are CPU ops
  REQUIRE(w.warnings.size() == 1);
  CHECK(w.warnings[0].find("dropped 1277 dependencies on nodes the trace lacks") != std::string::npos);
}
