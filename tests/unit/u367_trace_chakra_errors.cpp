// A Chakra trace the replay cannot read is one UserError(workload) line naming the file, the line of
// the node's object and what is wrong; a missing file is an io error.
#include <doctest/doctest.h>

#include "sim/error.h"
#include "workloads/traces/chakra.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
const std::string kMeta = "{\n  \"attr\": [{\"name\": \"schema\", \"stringVal\": \"1.0.2-chakra.0.0.4\"}]\n}";
std::string comp(int id, const std::string& deps = "") {
  return "{\"id\": \"" + std::to_string(id) + "\", \"type\": \"COMP_NODE\", \"dataDeps\": [" + deps +
         "], \"attr\": [{\"name\": \"num_ops\", \"int64Val\": \"8\"}]}\n";
}
std::string error_of(const std::string& text, std::int64_t ranks = 2) {
  try {
    chakra_workload(parse_chakra_json(text, "t.json"), ranks);
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::workload);
    CHECK(std::string(e.what()).find('\n') == std::string::npos);
    return e.what();
  }
  FAIL("no error for " << text);
  return "";
}
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("chakra: text that is not the jsonizer's objects") {
  CHECK(has(error_of("[" + comp(1) + "]"), "t.json:1: expected a JSON object ('{'), found '['"));
  CHECK(has(error_of(kMeta + "\n" + comp(1) + "{\"id\": \"2\", \"type\": "), "t.json:5: this JSON object is not closed"));
  CHECK(has(error_of(kMeta + "\n{\"id\": 1, \"type\": COMP_NODE}"), "t.json:4: this object is not JSON"));
  CHECK(has(error_of(kMeta), "t.json: no Chakra nodes"));
  CHECK(has(error_of(""), "t.json: no Chakra nodes"));
}

TEST_CASE("chakra: bad fields of a node name the node") {
  CHECK(has(error_of(R"({"id": "x1", "type": "COMP_NODE"})"), "t.json:1: node id \"x1\" is not a whole number"));
  CHECK(has(error_of(R"({"id": "1", "name": "mm"})"), "t.json:1: node 1 'mm': no type"));
  CHECK(has(error_of(R"({"id": "1", "type": "COMP_NOD"})"), "node 1: type 'COMP_NOD' is not a Chakra NodeType (did you mean COMP_NODE?)"));
  CHECK(has(error_of(R"({"id": "1", "type": 12})"), "node 1: type 12 is not a Chakra NodeType"));
  CHECK(has(error_of(R"({"id": "1", "type": "INVALID_NODE"})"), "node 1: type INVALID_NODE"));
  CHECK(has(error_of(R"({"id": "1", "type": "COMP_NODE", "dataDeps": "0"})"), "node 1: dataDeps is not a list of node ids"));
  CHECK(has(error_of(R"({"id": "1", "type": "COMP_NODE", "ctrlDeps": ["-3"]})"), "node 1: ctrlDeps: \"-3\" is not a node id"));
  CHECK(has(error_of(R"({"id": "1", "type": "COMP_NODE", "attr": [{"name": "num_ops", "int64Val": "-5"}]})"),
            "node 1: attribute num_ops: \"-5\" is not a whole number >= 0"));
  CHECK(has(error_of(R"({"id": "1", "type": "COMP_NODE", "attr": [{"name": "num_ops"}]})"), "node 1: attribute num_ops has no value"));
  CHECK(has(error_of(R"({"id": "1", "type": "COMP_NODE", "attr": [{"int64Val": "5"}]})"), "node 1: an attribute without a name"));
  CHECK(has(error_of(R"({"id": "1", "type": "COMP_NODE", "attr": [{"name": "is_cpu_op", "int64Val": "1"}]})"),
            "node 1: attribute is_cpu_op: \"1\" is not true or false"));
}

TEST_CASE("chakra: communication nodes need their attributes and a collective hwsim has") {
  CHECK(has(error_of(R"({"id": "4", "type": "COMM_COLL_NODE", "attr": [{"name": "comm_size", "int64Val": "8"}]})"),
            "t.json:1: node 4: a COMM_COLL_NODE without a comm_type attribute"));
  CHECK(has(error_of(R"({"id": "4", "type": "COMM_SEND_NODE"})"), "t.json:1: node 4: no comm_size attribute (bytes)"));
  std::string gather = error_of(
      R"({"id": "4", "type": "COMM_COLL_NODE", "attr": [{"name": "comm_type", "int64Val": "3"}, {"name": "comm_size", "int64Val": "8"}]})");
  CHECK(has(gather, "node 4: comm_type GATHER (3) has no counterpart among hwsim's collectives"));
  CHECK(has(error_of(
                R"({"id": "4", "type": "COMM_COLL_NODE", "attr": [{"name": "comm_type", "int64Val": "42"}, {"name": "comm_size", "int64Val": "8"}]})"),
            "node 4: comm_type 42 has no counterpart"));
}

TEST_CASE("chakra: dependencies must name nodes of the trace and form no cycle and ids are unique") {
  CHECK(has(error_of(kMeta + "\n" + comp(1) + comp(2, "\"7\"")), "t.json:5: node 2: depends on node 7, which the trace does not have"));
  CHECK(has(error_of(comp(1, "\"3\"") + comp(2, "\"1\"") + comp(3, "\"2\"") + comp(4)), "t.json: nodes 1, 2, 3 wait on a cycle of dependencies"));
  CHECK(has(error_of(comp(1, "\"1\"")), "t.json: nodes 1 wait on a cycle"));
  CHECK(has(error_of(comp(1) + comp(1)), "t.json:2: node 1: id 1 is also the id of the node of line 1"));
}

TEST_CASE("chakra: a trace without work, or ranks the layout cannot hold") {
  CHECK(has(error_of(R"({"id": "1", "type": "COMP_NODE", "durationMicros": "40"})"),
            "t.json: none of the 1 nodes carries work to re-simulate"));
  std::string send = R"({"id": "1", "type": "COMM_SEND_NODE", "attr": [{"name": "comm_size", "int64Val": "64"}]})";
  CHECK(has(error_of(send, 3), "must be a multiple of 2"));
  CHECK(has(error_of(comp(1), 1), "t.json: a replay needs at least 2 ranks"));
  try {
    WorkloadCatalog::build("chakra:file=/nonexistent/trace.json");
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::io);
    CHECK(std::string(e.what()).rfind("/nonexistent/trace.json: cannot read Chakra trace", 0) == 0);
  }
}

TEST_CASE("chakra: a node name with line breaks, or of 2 MB, is quoted as a bounded one-line excerpt") {
  std::string broken = error_of(R"({"id": "1", "name": "a\nb\nc", "type": "NO_SUCH"})");
  CHECK(has(broken, "node 1 'a?b?c': type 'NO_SUCH'"));
  std::string text = "{\"id\": \"1\", \"name\": \"";
  text.append(std::size_t(2) << 20, 'x');  // appended, not concatenated: GCC 12 warns on the temporary (-Wrestrict)
  text += "\", \"type\": \"NO_SUCH\"}";
  std::string huge = error_of(text);
  CHECK(huge.size() < 600);
  CHECK(has(huge, "xxx...'"));
}
