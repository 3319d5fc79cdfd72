// chakra_jsonizer's output parses: the GlobalMetadata then every node, camelCase keys, 64-bit
// integers as strings, enums by name, default values left out (node 0 has no "id").
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "workloads/traces/chakra.h"

using namespace hwsim;

namespace {
std::string read(const std::string& name) {
  std::ifstream in(std::string(HWSIM_SOURCE_DIR) + "/tests/data/" + name);
  REQUIRE(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("chakra: the sample step trace parses node by node") {
  ChakraTrace t = parse_chakra_json(read("chakra_step.json"), "chakra_step.json");
  CHECK(t.schema == "1.0.2-chakra.0.0.4");
  REQUIRE(t.nodes.size() == 7);
  const ChakraNode& fwd = t.nodes[0];
  CHECK(fwd.id == 0);  // left out of the JSON: proto3's default
  CHECK(fwd.name == "forward");
  CHECK(fwd.type == ChakraNodeType::comp);
  CHECK(fwd.line == 9);
  CHECK(fwd.num_ops == 2ull * 4096 * 4096 * 8192);
  CHECK(fwd.tensor_size == 3ull * 4096 * 8192 * 2);
  CHECK_FALSE(fwd.is_cpu_op);
  CHECK(fwd.data_deps.empty());

  const ChakraNode& ag = t.nodes[1];
  CHECK(ag.id == 1);
  CHECK(ag.type == ChakraNodeType::coll);
  CHECK(ag.comm_type == 2u);  // ALL_GATHER
  CHECK(ag.comm_size == 16u << 20);
  CHECK(ag.data_deps == std::vector<std::uint64_t>{0});

  CHECK(t.nodes[3].comm_type == 0u);  // ALL_REDUCE: an int64Val of "0" is still written (oneof)
  CHECK(t.nodes[4].comm_type == 7u);  // REDUCE_SCATTER
  CHECK(t.nodes[4].ctrl_deps == std::vector<std::uint64_t>{2});
  CHECK(t.nodes[5].is_cpu_op);
  CHECK_FALSE(t.nodes[5].num_ops.has_value());
  CHECK(t.nodes[6].data_deps == std::vector<std::uint64_t>{3, 4});
  CHECK(t.nodes[6].ctrl_deps == std::vector<std::uint64_t>{5});
}

TEST_CASE("chakra: the point-to-point sample has send and receive nodes") {
  ChakraTrace t = parse_chakra_json(read("chakra_p2p.json"), "chakra_p2p.json");
  REQUIRE(t.nodes.size() == 3);
  CHECK(t.nodes[1].type == ChakraNodeType::send);
  CHECK(t.nodes[2].type == ChakraNodeType::recv);
  CHECK(t.nodes[2].comm_size == 8u << 20);
}

TEST_CASE("chakra: numbers for strings, a numeric type, snake_case keys and no metadata are accepted") {
  ChakraTrace t = parse_chakra_json(
      R"({"id": 4, "type": 7, "data_deps": [3], "attr": [{"name": "comm_type", "int64Val": 5},)"
      R"( {"name": "comm_size", "uint64Val": "4096"}, {"name": "comm_tag", "int32Val": 1}]})"
      "\n"
      R"({"id": "3", "name": "x \"}{\" y", "type": "COMP_NODE", "attr": [{"name": "num_ops", "int64Val": "10"}]})",
      "t.json");
  REQUIRE(t.nodes.size() == 2);
  CHECK(t.schema.empty());
  CHECK(t.nodes[0].type == ChakraNodeType::coll);
  CHECK(t.nodes[0].comm_type == 5u);
  CHECK(t.nodes[0].comm_size == 4096u);
  CHECK(t.nodes[0].data_deps == std::vector<std::uint64_t>{3});
  CHECK(t.nodes[1].name == "x \"}{\" y");  // braces inside strings do not split objects
  CHECK(t.nodes[1].line == 2);
  CHECK(t.nodes[1].num_ops == 10u);
}
