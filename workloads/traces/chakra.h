#pragma once
// Chakra execution traces as workloads (chakra:file=PATH[,ranks=N]), in the JSON form that
// chakra's jsonizer writes (mlcommons/chakra src/jsonizer/jsonizer.py): the GlobalMetadata, then
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
  std::size_t line = 0;  // line of the file where its object starts
  std::uint64_t id = 0;
  std::string name;
  ChakraNodeType type = ChakraNodeType::invalid;
  std::vector<std::uint64_t> data_deps, ctrl_deps;
  std::optional<std::uint64_t> comm_type, comm_size, num_ops, tensor_size;
  bool is_cpu_op = false;
};

struct ChakraTrace {
  std::string source;   // file name, for messages
  std::string schema;   // the GlobalMetadata's "schema" attribute ("" when absent)
  std::vector<ChakraNode> nodes;  // in file order
};

// Parses the jsonizer's text; throws UserError(workload) "SOURCE:LINE: ..." for an object that is
// not JSON or not a node, and for a trace without nodes or with too many.
ChakraTrace parse_chakra_json(const std::string& text, const std::string& source);

// The workload on `ranks` ranks: one step whose graph follows the dependencies (dataDeps and
// ctrlDeps alike; nodes in dependency order, ties by id). COMM_COLL_NODE → a CollectiveOp among
// every rank (all_gather: comm_size is the shard each rank sends, as chakra's converter and
// ASTRA-sim take it, so bytes = comm_size·ranks; the others: bytes = comm_size; REDUCE runs as a
// broadcast); COMM_SEND_NODE/COMM_RECV_NODE → send_recv of comm_size (a receive reversed); COMP_NODE → a StreamOp
// {bytes_read = tensor_size, flops = num_ops} that the device re-simulates (durationMicros is not
// replayed). Nodes that carry no such work (METADATA, MEM_LOAD/MEM_STORE, CPU ops, COMP nodes
// without num_ops or tensor_size, BARRIER, 0-byte messages) are left out; what depends on them
// depends on what they depended on.
Workload chakra_workload(const ChakraTrace& trace, std::int64_t ranks);

}  // namespace hwsim
