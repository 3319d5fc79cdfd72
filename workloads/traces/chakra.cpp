// chakra:file=PATH[,ranks=N,strict=,compute=] — replays a Chakra execution trace (.et or
// chakra_jsonizer's JSON) on a --system.
#include "workloads/traces/chakra.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <queue>
#include <sstream>
#include <unordered_map>

#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "sim/input_file.h"
#include "sim/memory_budget.h"
#include "sim/result.h"
#include "workloads/traces/trace_common.h"

namespace hwsim {

namespace {

using nlohmann::json;

constexpr const char* kNodeTypes[] = {"INVALID_NODE",   "METADATA_NODE",  "MEM_LOAD_NODE", "MEM_STORE_NODE",
                                      "COMP_NODE",      "COMM_SEND_NODE", "COMM_RECV_NODE", "COMM_COLL_NODE"};
constexpr const char* kCommTypes[] = {"ALL_REDUCE", "REDUCE",         "ALL_GATHER",           "GATHER", "SCATTER",
                                      "BROADCAST",  "ALL_TO_ALL",     "REDUCE_SCATTER",       "REDUCE_SCATTER_BLOCK",
                                      "BARRIER"};
constexpr std::uint64_t kBarrier = 9;

std::string comm_type_name(std::uint64_t t) {
  return t < std::size(kCommTypes) ? fmt::format("{} ({})", kCommTypes[t], t) : std::to_string(t);
}

// A protobuf JSON integer: a decimal string (64-bit fields) or a number (32-bit fields).
std::optional<std::uint64_t> as_unsigned(const json& v) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer()) {
    auto x = v.get<std::int64_t>();
    return x < 0 ? std::nullopt : std::optional<std::uint64_t>(std::uint64_t(x));
  }
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (d >= 0 && d < 1.8e19 && d == std::floor(d)) return std::uint64_t(d);
    return std::nullopt;
  }
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (s.empty() || s.size() > 20 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    std::uint64_t x = 0;
    std::istringstream in(s);
    in >> x;
    if (!in || !in.eof()) return std::nullopt;
    return x;
  }
  return std::nullopt;
}

// The objects of a concatenation "{...}{...}..." with the line each starts on.
std::vector<std::pair<std::size_t, std::string_view>> split_objects(const std::string& text, const std::string& source) {
  std::vector<std::pair<std::size_t, std::string_view>> out;
  std::size_t line = 1, start = 0, start_line = 0;
  int depth = 0;
  bool in_string = false, escape = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') ++line;
    if (in_string) {
      if (escape) escape = false;
      else if (c == '\\') escape = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (depth == 0) {
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
      if (c != '{')
        workload_error(fmt::format("{}:{}: expected a JSON object ('{{'), found '{}': a Chakra trace in JSON is the "
                                   "objects chakra_jsonizer writes, one after another", source, line, c));
      start = i, start_line = line, depth = 1;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') ++depth;
    else if (c == '}' || c == ']') {
      if (--depth == 0) {
        out.emplace_back(start_line, std::string_view(text).substr(start, i + 1 - start));
        if (out.size() > kMaxTraceOps + 1)
          workload_error(fmt::format("{}: more than {} nodes; replay a shorter trace", source, kMaxTraceOps));
      }
    }
  }
  if (depth != 0) workload_error(fmt::format("{}:{}: this JSON object is not closed by the end of the file", source, start_line));
  return out;
}

// The most characters of a file's text an error line quotes (a node's name, a value): a 2 MB
// name or one with line breaks must not make a 2 MB or a three-line error.
constexpr std::size_t kQuoted = 60;

bool is_metadata(const json& j) {
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "version" && it.key() != "attr") return false;
  return true;
}

ChakraNode parse_node(const json& j, std::size_t line, const std::string& source) {
  ChakraNode n;
  n.line = line;
  std::string where = fmt::format("{}:{}", source, line);
  auto fail = [&](const std::string& what) -> void { workload_error(fmt::format("{}: {}", where, what)); };
  if (j.contains("id")) {
    auto id = as_unsigned(j["id"]);
    if (!id) fail(fmt::format("node id {} is not a whole number", shorten(j["id"].dump(), kQuoted)));
    n.id = *id;
  }
  if (j.contains("name")) {
    if (!j["name"].is_string()) fail(fmt::format("node {}: name is not a string", n.id));
    n.name = j["name"].get<std::string>();
  }
  where = fmt::format("{}:{}: node {}{}", source, line, n.id, n.name.empty() ? "" : " '" + shorten(n.name, kQuoted) + "'");
  if (!j.contains("type")) fail("no type (COMP_NODE, COMM_COLL_NODE, COMM_SEND_NODE, COMM_RECV_NODE, ...)");
  const json& t = j["type"];
  std::vector<std::string> names(std::begin(kNodeTypes), std::end(kNodeTypes));
  if (t.is_string()) {
    auto it = std::find(names.begin(), names.end(), t.get<std::string>());
    if (it == names.end())
      fail(fmt::format("type '{}' is not a Chakra NodeType{}; known: {}", shorten(t.get<std::string>(), kQuoted),
                       did_you_mean(t.get<std::string>(), names), join(names)));
    n.type = ChakraNodeType(it - names.begin());
  } else {
    auto v = as_unsigned(t);
    if (!v || *v >= names.size()) fail(fmt::format("type {} is not a Chakra NodeType; known: {}", shorten(t.dump(), kQuoted), join(names)));
    n.type = ChakraNodeType(*v);
  }
  if (n.type == ChakraNodeType::invalid) fail("type INVALID_NODE");
  for (const char* key : {"dataDeps", "data_deps", "ctrlDeps", "ctrl_deps"}) {
    if (!j.contains(key)) continue;
    const json& deps = j[key];
    if (!deps.is_array()) fail(fmt::format("{} is not a list of node ids", key));
    auto& out = key[0] == 'd' ? n.data_deps : n.ctrl_deps;
    for (const json& d : deps) {
      auto id = as_unsigned(d);
      if (!id) fail(fmt::format("{}: {} is not a node id", key, shorten(d.dump(), kQuoted)));
      out.push_back(*id);
    }
  }
  for (const char* key : {"durationMicros", "duration_micros"})
    if (j.contains(key)) {
      auto d = as_unsigned(j[key]);
      if (!d) fail(fmt::format("{}: {} is not a whole number of microseconds", key, shorten(j[key].dump(), kQuoted)));
      n.duration_micros = *d;
    }
  if (j.contains("attr")) {
    if (!j["attr"].is_array()) fail("attr is not a list");
    for (const json& a : j["attr"]) {
      if (!a.is_object() || !a.contains("name") || !a["name"].is_string()) fail("an attribute without a name");
      std::string name = a["name"].get<std::string>();
      const json* value = nullptr;
      for (auto it = a.begin(); it != a.end(); ++it)
        if (it.key() != "name" && it.key() != "docString" && it.key() != "doc_string") value = &it.value();
      std::optional<std::uint64_t>* target = name == "comm_type" ? &n.comm_type
                                             : name == "comm_size" ? &n.comm_size
                                             : name == "num_ops"   ? &n.num_ops
                                             : name == "tensor_size" ? &n.tensor_size
                                                                     : nullptr;
      if (name == "pg_name" && value && value->is_string()) n.pg_name = value->get<std::string>();
      if (name == "is_cpu_op" && value) {
        if (!value->is_boolean()) fail(fmt::format("attribute is_cpu_op: {} is not true or false", shorten(value->dump(), kQuoted)));
        n.is_cpu_op = value->get<bool>();
      }
      if (!target) continue;
      if (!value) fail(fmt::format("attribute {} has no value", shorten(name, kQuoted)));
      auto v = as_unsigned(*value);
      if (!v) fail(fmt::format("attribute {}: {} is not a whole number >= 0", shorten(name, kQuoted), shorten(value->dump(), kQuoted)));
      *target = *v;
    }
  }
  return n;
}

}  // namespace

ChakraTrace parse_chakra_json(const std::string& text, const std::string& source) {
  ChakraTrace trace;
  trace.source = source;
  auto objects = split_objects(text, source);
  for (std::size_t i = 0; i < objects.size(); ++i) {
    auto [line, body] = objects[i];
    json j;
    try {
      j = json::parse(body);
    } catch (const json::exception& e) {
      workload_error(fmt::format("{}:{}: this object is not JSON: {}", source, line, shorten(e.what(), kQuoted * 4)));
    }
    if (i == 0 && is_metadata(j)) {
      if (j.contains("attr") && j["attr"].is_array())
        for (const json& a : j["attr"])
          if (a.is_object() && a.contains("name") && a["name"].is_string() && a["name"] == "schema" &&
              a.contains("stringVal") && a["stringVal"].is_string())  // value() throws on a name of another type
            trace.schema = a["stringVal"].get<std::string>();
      continue;
    }
    trace.nodes.push_back(parse_node(j, line, source));
  }
  if (trace.nodes.empty())
    workload_error(fmt::format("{}: no Chakra nodes (expected the GlobalMetadata, then nodes, as chakra_jsonizer writes "
                               "them)", source));
  if (trace.nodes.size() > kMaxTraceOps)
    workload_error(fmt::format("{}: {} nodes, more than {}; replay a shorter trace", source, trace.nodes.size(), kMaxTraceOps));
  return trace;
}

std::string chakra_node_place(const ChakraTrace& t, const ChakraNode& n) {
  return fmt::format("{}{}{}: node {}{}", t.source, t.binary ? ": message " : ":", n.line, n.id,
                     n.name.empty() ? "" : " '" + shorten(n.name, kQuoted) + "'");
}

namespace {

// What tolerant reading dropped and how COMP_NODEs became work, for the warning line.
struct ChakraTally {
  std::size_t missing = 0, cycle_edges = 0, replayed = 0, simulated = 0, cpu_ops = 0, unpriced = 0;
};

// Dependencies (data and control alike) as node indices, sorted, without repeats. An id the trace
// lacks is refused (strict) or dropped and counted.
std::vector<std::vector<std::size_t>> dependency_lists(const ChakraTrace& t, bool strict, ChakraTally& tally) {
  const auto& nodes = t.nodes;
  std::unordered_map<std::uint64_t, std::size_t> index;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    auto [it, fresh] = index.emplace(nodes[i].id, i);
    if (!fresh)
      workload_error(fmt::format("{}: id {} is also the id of the node of {} {}", chakra_node_place(t, nodes[i]),
                                 nodes[i].id, t.binary ? "message" : "line", nodes[it->second].line));
  }
  std::vector<std::vector<std::size_t>> deps(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    for (const auto* list : {&nodes[i].data_deps, &nodes[i].ctrl_deps})
      for (std::uint64_t id : *list) {
        auto it = index.find(id);
        if (it != index.end()) deps[i].push_back(it->second);
        else if (strict)
          workload_error(fmt::format("{}: depends on node {}, which the trace does not have (strict=false drops "
                                     "such dependencies)", chakra_node_place(t, nodes[i]), id));
        else ++tally.missing;
      }
    std::sort(deps[i].begin(), deps[i].end());
    deps[i].erase(std::unique(deps[i].begin(), deps[i].end()), deps[i].end());
  }
  return deps;
}

// Dependency order, ties by id (Kahn). A cycle is refused (strict), or broken: the waiting node of
// the lowest id runs, its unmet dependencies dropped (counted) and removed from `deps`.
std::vector<std::size_t> dependency_order(const ChakraTrace& t, std::vector<std::vector<std::size_t>>& deps, bool strict,
                                          ChakraTally& tally) {
  const auto& nodes = t.nodes;
  std::vector<std::vector<std::size_t>> users(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (std::size_t d : deps[i]) users[d].push_back(i);
  std::vector<std::size_t> waiting(nodes.size()), order;
  std::vector<bool> placed(nodes.size(), false);
  using Entry = std::pair<std::uint64_t, std::size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if ((waiting[i] = deps[i].size()) == 0) ready.emplace(nodes[i].id, i);
  std::size_t next_stuck = 0;  // nodes below it were placed (the lowest waiting id is searched from here)
  std::vector<std::size_t> by_id(nodes.size());
  for (std::size_t i = 0; i < by_id.size(); ++i) by_id[i] = i;
  std::sort(by_id.begin(), by_id.end(), [&](std::size_t a, std::size_t b) { return nodes[a].id < nodes[b].id; });
  while (order.size() < nodes.size()) {
    if (ready.empty()) {
      while (placed[by_id[next_stuck]]) ++next_stuck;
      std::size_t i = by_id[next_stuck];
      if (strict) {
        std::vector<std::string> stuck;
        for (std::size_t k = 0; k < nodes.size() && stuck.size() < 6; ++k)
          if (!placed[k]) stuck.push_back(std::to_string(nodes[k].id));
        workload_error(fmt::format("{}: nodes {}{} wait on a cycle of dependencies (strict=false breaks cycles)",
                                   t.source, join(stuck), nodes.size() - order.size() > stuck.size() ? ", ..." : ""));
      }
      std::erase_if(deps[i], [&](std::size_t d) { return !placed[d]; });
      tally.cycle_edges += waiting[i];
      waiting[i] = 0;
      ready.emplace(nodes[i].id, i);
    }
    std::size_t i = ready.top().second;
    ready.pop();
    placed[i] = true;
    order.push_back(i);
    for (std::size_t u : users[i])
      if (!placed[u] && waiting[u] > 0 && --waiting[u] == 0) ready.emplace(nodes[u].id, u);
  }
  return order;
}

// The collective a COMM node stands for (nullopt: no work).
std::optional<Op> comm_op(const ChakraTrace& t, const ChakraNode& n, std::int64_t ranks, const std::string& name) {
  bool coll = n.type == ChakraNodeType::coll;
  if (coll && !n.comm_type) workload_error(fmt::format("{}: a COMM_COLL_NODE without a comm_type attribute", chakra_node_place(t, n)));
  if (!n.comm_size) workload_error(fmt::format("{}: no comm_size attribute (bytes)", chakra_node_place(t, n)));
  CollectiveOp c;
  if (!coll) c.kind = CollectiveKind::send_recv, c.reverse = n.type == ChakraNodeType::recv;
  else switch (*n.comm_type) {
      case 0: c.kind = CollectiveKind::all_reduce; break;
      case 1: c.kind = CollectiveKind::broadcast; break;  // REDUCE: a broadcast's bytes, towards the root
      case 2: c.kind = CollectiveKind::all_gather; break;
      case 5: c.kind = CollectiveKind::broadcast; break;
      case 6: c.kind = CollectiveKind::all_to_all; break;
      case 7: c.kind = CollectiveKind::reduce_scatter; break;
      case kBarrier: return std::nullopt;
      default:
        workload_error(fmt::format("{}: comm_type {} has no counterpart among hwsim's collectives (ALL_REDUCE, "
                                   "REDUCE, ALL_GATHER, BROADCAST, ALL_TO_ALL, REDUCE_SCATTER, BARRIER)",
                                   chakra_node_place(t, n), comm_type_name(*n.comm_type)));
    }
  if (*n.comm_size == 0) return std::nullopt;
  c.bytes = double(*n.comm_size) * (c.kind == CollectiveKind::all_gather ? double(ranks) : 1.0);
  if (c.bytes > 1e15) workload_error(fmt::format("{}: {} bytes is more than 1 PB", chakra_node_place(t, n), c.bytes));
  return Op{name, "collective", c};
}

// What a node becomes (nullopt: no work to simulate or replay).
std::optional<Op> node_op(const ChakraTrace& t, const ChakraNode& n, const ChakraOptions& o, ChakraTally& tally) {
  std::string name = n.name.empty() ? fmt::format("node {}", n.id) : n.name;
  switch (n.type) {
    case ChakraNodeType::comp: {
      if (n.is_cpu_op) return ++tally.cpu_ops, std::nullopt;
      bool sized = n.num_ops.value_or(0) || n.tensor_size.value_or(0);
      bool timed = n.duration_micros.value_or(0) > 0;
      if (sized && o.compute != "replay") {
        ++tally.simulated;
        StreamOp s;
        s.bytes_read = double(n.tensor_size.value_or(0));
        s.flops = double(n.num_ops.value_or(0));
        return Op{name, "compute", s};
      }
      if (timed && o.compute != "simulate") {
        ++tally.replayed;
        return Op{name, kRecordedClass, RecordedOp{double(*n.duration_micros) * 1e-6}};
      }
      return ++tally.unpriced, std::nullopt;
    }
    case ChakraNodeType::coll:
    case ChakraNodeType::send:
    case ChakraNodeType::recv:
      if (n.is_cpu_op) return ++tally.cpu_ops, std::nullopt;  // the host-side call of a collective
      return comm_op(t, n, o.ranks, name);
    default:
      return std::nullopt;  // METADATA, MEM_LOAD, MEM_STORE
  }
}

std::string tally_line(const ChakraTrace& t, const ChakraTally& k) {
  std::string line = fmt::format("{}: {} COMP_NODEs replayed at their recorded durations, {} re-simulated from "
                                 "num_ops and tensor_size, {} with neither left out; {} CPU ops left out",
                                 t.source, k.replayed, k.simulated, k.unpriced, k.cpu_ops);
  if (k.missing + k.cycle_edges > 0)
    line += fmt::format("; dropped {} dependencies on nodes the trace lacks and {} that closed cycles (strict=true "
                        "refuses them)", k.missing, k.cycle_edges);
  return line;
}

}  // namespace

Workload chakra_workload(const ChakraTrace& t, const ChakraOptions& options) {
  if (options.compute != "auto" && options.compute != "replay" && options.compute != "simulate")
    workload_error(fmt::format("{}: compute={}: expected auto, replay or simulate", t.source, options.compute));
  const auto& nodes = t.nodes;
  ChakraTally tally;
  auto deps = dependency_lists(t, options.strict, tally);
  auto order = dependency_order(t, deps, options.strict, tally);
  std::vector<std::optional<Op>> ops(nodes.size());
  bool p2p = false;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    ops[i] = node_op(t, nodes[i], options, tally);
    if (ops[i] && is_collective(*ops[i]) && std::get<CollectiveOp>(ops[i]->shape).kind == CollectiveKind::send_recv)
      p2p = true;
  }
  TraceLayout layout = trace_layout(options.ranks, 0, p2p, t.source);
  Workload w;
  w.parallel = layout.parallel();
  WorkloadStep step{std::filesystem::path(t.source).filename().string(), {}};
  // frontier[i]: the graph vertices node i stands for (itself, or what a left-out node waited on),
  // shared: a left-out node with one dependency stands for that one's frontier without a copy (a
  // chain of 30,000 left-out nodes after a 30,000-way fan-in copied 9·10^8 vertices, 7 GB).
  using Frontier = std::shared_ptr<const std::vector<OpVertex>>;
  std::vector<Frontier> frontier(nodes.size(), std::make_shared<const std::vector<OpVertex>>());
  std::size_t kept = 0;
  for (std::size_t i : order) {
    if (!ops[i] && deps[i].size() == 1) {
      frontier[i] = frontier[deps[i].front()];
      continue;
    }
    std::vector<OpVertex> inputs;
    for (std::size_t d : deps[i]) inputs.insert(inputs.end(), frontier[d]->begin(), frontier[d]->end());
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    if (!ops[i]) {
      charge_memory(double(inputs.size() * sizeof(OpVertex)), "the Chakra trace's dependencies");
      frontier[i] = std::make_shared<const std::vector<OpVertex>>(std::move(inputs));
      continue;
    }
    Op op = std::move(*ops[i]);
    if (auto* c = std::get_if<CollectiveOp>(&op.shape)) layout.place(*c, options.ranks);
    frontier[i] = std::make_shared<const std::vector<OpVertex>>(1, add_op(step.graph, std::move(op), inputs));
    ++kept;
  }
  if (kept == 0)
    workload_error(fmt::format("{}: none of the {} nodes carries work to re-simulate or replay (collectives and "
                               "messages with comm_size > 0, COMP_NODEs with num_ops, tensor_size or a duration that "
                               "are not CPU ops)", t.source, nodes.size()));
  w.steps.push_back(std::move(step));
  if (tally.replayed > 0 || tally.missing + tally.cycle_edges > 0) w.warnings.push_back(tally_line(t, tally));
  return w;
}

namespace {

Workload build_chakra(const WorkloadSpec& spec) {
  std::string path = spec.word("file", "");
  ChakraOptions o;
  o.ranks = spec.positive_int("ranks", 2);
  o.strict = spec.boolean("strict", false);
  o.compute = spec.word("compute", "auto");
  spec.reject_unused({"file", "ranks", "strict", "compute"});
  if (path.empty())
    workload_error(fmt::format("workload '{}': file: missing (a Chakra execution trace: a .et file, or chakra_jsonizer's "
                               "JSON)", spec.text()));
  std::ifstream in = open_trace_file(path, "Chakra trace");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) io_error(fmt::format("{}: read failed", path));
  return chakra_workload(looks_like_chakra_json(text) ? parse_chakra_json(text, path) : parse_chakra_et(text, path), o);
}

HWSIM_REGISTER_WORKLOAD("chakra",
                        "replay a Chakra execution trace (a .et file, or chakra_jsonizer's JSON) on a --system: "
                        "file=PATH, ranks=2, strict=false (true: refuse dependencies on missing nodes and cycles), "
                        "compute=auto|replay|simulate (COMP_NODEs at their recorded durations or re-simulated from "
                        "num_ops and tensor_size; auto: simulate where sized); collectives and sends/receives by "
                        "comm_size among all ranks, dataDeps and ctrlDeps as graph edges",
                        build_chakra);

}  // namespace
}  // namespace hwsim
