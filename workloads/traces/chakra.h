#pragma once
// Chakra execution traces as workloads (chakra:file=PATH[,ranks=N,strict=,compute=]): the binary
// .et that chakra's converters write (chakra_et.cpp: protobuf messages, each after its length), or
// the JSON form that chakra's jsonizer writes (mlcommons/chakra src/jsonizer/jsonizer.py): the GlobalMetadata, then
// every Node, each as protobuf's MessageToJson prints it, concatenated — camelCase keys, 64-bit
// integers as strings, enums by name, default values (an id of 0, an empty list) left out. Fields
// follow schema/protobuf/et_def.proto: Node {id, name, type, ctrlDeps, dataDeps, startTimeMicros,
// durationMicros, inputs, outputs, attr}; AttributeProto {name, <kind>Val}. The attributes read are
// those chakra's feeder reads (src/feeder/et_feeder_node.cpp): comm_type, comm_size, num_ops,
// tensor_size, is_cpu_op. Hardware-free.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "workloads/workload.h"

namespace hwsim {

// et_def.proto NodeType and CollectiveCommType.
enum class ChakraNodeType { invalid = 0, metadata = 1, mem_load = 2, mem_store = 3, comp = 4, send = 5, recv = 6, coll = 7 };

struct ChakraNode {
  std::size_t line = 0;  // JSON: the line of the file where its object starts; .et: its message's index
  std::uint64_t id = 0;
  std::string name;
  ChakraNodeType type = ChakraNodeType::invalid;
  std::vector<std::uint64_t> data_deps, ctrl_deps;
  std::optional<std::uint64_t> comm_type, comm_size, num_ops, tensor_size;
  std::optional<std::uint64_t> duration_micros;  // the time the node took where the trace was made
  std::string pg_name;                            // its communicator (read; all run among every rank)
  bool is_cpu_op = false;
};

struct ChakraTrace {
  std::string source;   // file name, for messages
  std::string schema;   // the GlobalMetadata's "schema" attribute ("" when absent)
  std::vector<ChakraNode> nodes;  // in file order
  bool binary = false;            // read from a .et file (ChakraNode::line is a message index)
};

// "FILE:LINE: node ID 'NAME'" (JSON) or "FILE: message N: node ID 'NAME'" (.et), for messages.
std::string chakra_node_place(const ChakraTrace& trace, const ChakraNode& node);

// Parses the jsonizer's text; throws UserError(workload) "SOURCE:LINE: ..." for an object that is
// not JSON or not a node, and for a trace without nodes or with too many.
ChakraTrace parse_chakra_json(const std::string& text, const std::string& source);
// Parses a binary .et file's bytes; throws UserError(workload) "SOURCE: message N (byte B): ..." for
// bytes that are not such messages, and for a trace without nodes or with too many.
ChakraTrace parse_chakra_et(const std::string& bytes, const std::string& source);
// Whether a file's text is the jsonizer's JSON (its first non-blank character is '{').
bool looks_like_chakra_json(const std::string& text);

// How a trace becomes a workload.
struct ChakraOptions {
  std::int64_t ranks = 2;
  // Refuse dependencies on nodes the trace lacks and cycles of dependencies; else (false) drop them,
  // counted in one warning, as ASTRA-sim's feeder runs such traces.
  bool strict = false;
  // COMP_NODEs: "simulate" from num_ops and tensor_size (those without are left out); "replay" at
  // their recorded durationMicros (RecordedOp); "auto": simulate where the node has num_ops or
  // tensor_size, else replay where it has a duration.
  std::string compute = "auto";
};

// The workload on `ranks` ranks: one step whose graph follows the dependencies (dataDeps and
// ctrlDeps alike; nodes in dependency order, ties by id; see ChakraOptions for dependencies on
// missing nodes, cycles and COMP_NODEs' time). COMM_COLL_NODE → a CollectiveOp among
// every rank (all_gather: comm_size is the shard each rank sends, as chakra's converter and
// ASTRA-sim take it, so bytes = comm_size·ranks; the others: bytes = comm_size; REDUCE runs as a
// broadcast); COMM_SEND_NODE/COMM_RECV_NODE → send_recv of comm_size (a receive reversed);
// COMP_NODE → a StreamOp {bytes_read = tensor_size, flops = num_ops} that the device
// re-simulates, or a RecordedOp of its durationMicros. Nodes that carry no such work (METADATA,
// MEM_LOAD/MEM_STORE, CPU ops — a collective's host-side call among them — COMP nodes with nothing
// to simulate or replay, BARRIER, 0-byte messages) are left out; what depends on them depends on
// what they depended on. What was replayed, simulated and dropped is the workload's one warning.
Workload chakra_workload(const ChakraTrace& trace, const ChakraOptions& options);
// The strict, re-simulating reading on `ranks` ranks.
inline Workload chakra_workload(const ChakraTrace& trace, std::int64_t ranks) {
  return chakra_workload(trace, ChakraOptions{ranks, true, "simulate"});
}

}  // namespace hwsim
