// nccl_log:file=PATH[,ranks=N] — replays the collective calls of an NCCL debug log
// (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL) on a --system.
//
// A collective line is any line holding ": opCount " (NCCL's fixed text); every other line is
// ignored, and a collective line that does not parse is one error naming FILE:LINE. Every rank logs
// its own calls, so one rank's view is kept: the process (HOST:PID) of the first collective line,
// and of its devices the lowest [DEV] (a process may drive several GPUs). Counts become nccl-tests
// sizes (nccl_collective()); the calls become one step, a chain in log order.
#include "workloads/traces/nccl_log.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <optional>
#include <iterator>
#include <set>
#include <string_view>

#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "workloads/traces/trace_common.h"

namespace hwsim {

namespace {

// ncclDataType_t (nccl.h): ncclInt8 0 … ncclBfloat16 9; ncclFloat8e4m3 10, ncclFloat8e5m2 11 (2.24+).
// hwsim has no 32-bit integer or 8-byte type: those keep their element size (the bytes) and carry
// the fp32 label (a collective's dtype only names it in the report).
constexpr NcclType kNcclTypes[] = {
    {"int8", 1, DType::int8},     {"uint8", 1, DType::int8},     {"int32", 4, DType::fp32},
    {"uint32", 4, DType::fp32},   {"int64", 8, DType::fp32},     {"uint64", 8, DType::fp32},
    {"float16", 2, DType::fp16},  {"float32", 4, DType::fp32},   {"float64", 8, DType::fp32},
    {"bfloat16", 2, DType::bf16}, {"float8e4m3", 1, DType::fp8}, {"float8e5m2", 1, DType::fp8},
};
constexpr int kNcclTypeCount = int(sizeof(kNcclTypes) / sizeof(kNcclTypes[0]));

// NCCL's opName → our collective. Reduce moves what a broadcast moves, towards the root instead of
// from it (nccl-tests' bus bandwidth factor is 1 for both), so it runs as a broadcast.
struct NcclOpName {
  const char* name;
  CollectiveKind kind;
};
constexpr NcclOpName kNcclOps[] = {
    {"AllReduce", CollectiveKind::all_reduce},         {"AllGather", CollectiveKind::all_gather},
    {"ReduceScatter", CollectiveKind::reduce_scatter}, {"Broadcast", CollectiveKind::broadcast},
    {"Reduce", CollectiveKind::broadcast},             {"AlltoAll", CollectiveKind::all_to_all},
    {"AllToAll", CollectiveKind::all_to_all},          {"Send", CollectiveKind::send_recv},
    {"Recv", CollectiveKind::send_recv},
};

std::vector<std::string> op_names() {
  std::vector<std::string> out;
  for (const auto& o : kNcclOps) out.emplace_back(o.name);
  return out;
}

const NcclOpName* find_op(std::string_view name) {
  for (const auto& o : kNcclOps)
    if (name == o.name) return &o;
  return nullptr;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t' && s[j] != '\r') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

template <typename T>
bool parse_number(std::string_view text, T& value, int base = 10) {
  if (base == 16 && text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) text.remove_prefix(2);
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  return ec == std::errc() && end == text.data() + text.size();
}

// One collective line → a call; throws naming SOURCE:LINE.
NcclCall parse_line(std::string_view line, std::size_t number, const std::string& source) {
  NcclCall call;
  call.line = number;
  auto fail = [&](const std::string& what) -> void {
    workload_error(fmt::format("{}:{}: {}", source, number, what));
  };
  std::size_t info = line.find("NCCL INFO ");
  if (info == std::string_view::npos)
    fail("a collective line (': opCount ') without 'NCCL INFO '; expected 'HOST:PID:TID [DEV] NCCL INFO "
         "AllReduce: opCount ...' (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL)");
  // The prefix: "HOST:PID:TID [DEV]" (a timestamp may stand before it).
  auto prefix = words(line.substr(0, info));
  bool prefix_ok = prefix.size() >= 2;
  if (prefix_ok) {
    std::string_view dev = prefix.back(), who = prefix[prefix.size() - 2];
    prefix_ok = dev.size() >= 3 && dev.front() == '[' && dev.back() == ']' &&
                parse_number(dev.substr(1, dev.size() - 2), call.device) && call.device >= 0;
    std::size_t tid = who.rfind(':');
    std::size_t pid = tid == std::string_view::npos || tid == 0 ? std::string_view::npos : who.rfind(':', tid - 1);
    prefix_ok = prefix_ok && pid != std::string_view::npos && pid > 0;
    if (prefix_ok) call.process = std::string(who.substr(0, tid));
  }
  if (!prefix_ok) fail("expected 'HOST:PID:TID [DEV]' before 'NCCL INFO' (NCCL's log prefix)");
  std::string_view rest = line.substr(info + 10);
  std::size_t colon = rest.find(": opCount ");
  std::string_view name = trim(rest.substr(0, colon == std::string_view::npos ? 0 : colon));
  bool word = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  });
  if (colon == std::string_view::npos || !word)
    fail("expected 'NCCL INFO NAME: opCount ...' with NAME a collective (AllReduce, Send, ...)");
  call.op = std::string(name);
  const NcclOpName* op = find_op(name);
  if (!op)
    fail(fmt::format("{}: not a collective hwsim replays{}; known: {}", call.op, did_you_mean(call.op, op_names()),
                     join(op_names())));
  // "opCount X sendbuff X recvbuff X count X datatype X op X root X comm X [nranks=X] stream X": key value
  // pairs and the bracketed rank count; keys beyond these (later NCCL versions) are ignored.
  auto tokens = words(rest.substr(colon + 2));
  static constexpr std::string_view kKeys[] = {"opCount", "sendbuff", "recvbuff", "count", "datatype",
                                               "op",      "root",     "comm",     "stream", "nranks"};
  auto key_index = [](std::string_view key) {
    for (std::size_t k = 0; k < std::size(kKeys); ++k)
      if (kKeys[k] == key) return int(k);
    return -1;
  };
  unsigned seen = 0;
  auto has = [&](std::string_view key) { return (seen >> key_index(key) & 1u) != 0; };
  auto bad = [&](std::string_view key, std::string_view value, const char* want) {
    fail(fmt::format("{}: {} '{}' is not {}", call.op, key, value, want));
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    std::string_view key = tokens[i];
    if (key.substr(0, 8) == "[nranks=") {
      std::string_view n = key.substr(8);
      if (!n.empty() && (n.back() == ']' || n.back() == ',')) n.remove_suffix(1);
      if (!parse_number(n, call.nranks) || call.nranks < 1) bad("nranks", n, "a whole number >= 1");
      if (has("nranks")) fail(fmt::format("{}: nranks given twice", call.op));
      seen |= 1u << key_index("nranks");
      continue;
    }
    int k = key_index(key);
    if (k < 0) {
      // A field of a later NCCL: skip it, and its value unless it is "key=value]"-like.
      if (key.find('=') == std::string_view::npos && key.find(']') == std::string_view::npos) ++i;
      continue;
    }
    if (i + 1 >= tokens.size() || tokens[i + 1].substr(0, 8) == "[nranks=") fail(fmt::format("{}: {} has no value", call.op, key));
    std::string_view value = tokens[++i];
    if (seen >> k & 1u) fail(fmt::format("{}: {} given twice", call.op, key));
    seen |= 1u << k;
    if (key == "opCount") {
      if (!parse_number(value, call.op_count, 16)) bad(key, value, "a hexadecimal count");
    } else if (key == "count") {
      if (!parse_number(value, call.count)) bad(key, value, "a whole number of elements");
    } else if (key == "datatype") {
      if (!parse_number(value, call.datatype)) bad(key, value, "a datatype number");
    } else if (key == "root") {
      if (!parse_number(value, call.root)) bad(key, value, "a rank");
    } else if (key == "op") {
      int reduction = 0;
      if (!parse_number(value, reduction)) bad(key, value, "a reduction number");
    } else if (key == "comm") {
      call.comm = std::string(value);
    }
  }
  for (std::string_view required : {"opCount", "count", "datatype", "comm", "nranks"})
    if (!has(required)) fail(fmt::format("{}: no {}{}", call.op, required, required == "nranks" ? " ([nranks=N])" : ""));
  if (call.datatype < 0 || call.datatype >= kNcclTypeCount) nccl_type(call.datatype, fmt::format("{}:{}: {}", source, number, call.op));
  if (op->kind == CollectiveKind::send_recv) {
    if (!has("root")) fail(fmt::format("{}: no root (the peer of a {})", call.op, call.op));
    if (call.root < 0 || call.root >= call.nranks)
      fail(fmt::format("{}: peer {} is not a rank of the {}-rank communicator", call.op, call.root, call.nranks));
  }
  return call;
}

// Per communicator: the latest opCount seen, and whether lines went back to an older one (a repeat).
struct CommState {
  std::uint64_t latest = 0;
  bool repeating = false;
};

}  // namespace

NcclType nccl_type(int datatype, const std::string& where) {
  if (datatype < 0 || datatype >= kNcclTypeCount) {
    std::vector<std::string> names;
    for (int i = 0; i < kNcclTypeCount; ++i) names.push_back(fmt::format("{} {}", i, kNcclTypes[i].name));
    workload_error(fmt::format("{}: datatype {} is not an ncclDataType_t ({})", where, datatype, join(names)));
  }
  return kNcclTypes[datatype];
}

NcclLog parse_nccl_log(std::istream& in, const std::string& source) {
  NcclLog log;
  log.source = source;
  std::string first_process;
  int device = -1;  // the kept device of first_process
  bool overflow = false;
  std::map<std::string, CommState> comms;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (line.find(": opCount ") == std::string::npos) continue;
    NcclCall call = parse_line(line, number, source);
    ++log.collective_lines;
    if (first_process.empty()) first_process = call.process;
    if (call.process != first_process) continue;
    if (device >= 0 && call.device > device) continue;
    if (call.device != device) {  // the first line of a lower device: keep that one's view instead
      device = call.device;
      log.calls.clear();
      comms.clear();
      log.duplicates = 0;
      overflow = false;
    }
    auto [it, fresh] = comms.try_emplace(call.comm);
    CommState& c = it->second;
    if (!fresh) {
      if (call.op_count < c.latest || (call.op_count == c.latest && c.repeating)) {
        c.repeating = true;
        ++log.duplicates;
        continue;
      }
      if (call.op_count > c.latest) c.repeating = false;
    }
    c.latest = call.op_count;
    if (log.calls.size() >= kMaxTraceOps) {
      overflow = true;
      continue;
    }
    log.calls.push_back(std::move(call));
  }
  if (in.bad()) io_error(fmt::format("{}: read failed", source));
  if (log.collective_lines == 0)
    workload_error(fmt::format("{}: no collective lines (lines like 'HOST:PID:TID [DEV] NCCL INFO AllReduce: opCount "
                               "0 ... count N datatype T ... comm 0x... [nranks=N] ...'); log with NCCL_DEBUG=INFO "
                               "NCCL_DEBUG_SUBSYS=COLL", source));
  if (overflow)
    workload_error(fmt::format("{}: rank {} [{}] logged more than {} collective calls; replay a shorter log (e.g. one "
                               "training step)", source, first_process, device, kMaxTraceOps));
  log.rank = fmt::format("{} [{}]", first_process, device);
  return log;
}

CollectiveOp nccl_collective(const NcclCall& call, const std::string& source) {
  std::string where = fmt::format("{}:{}: {}", source, call.line, call.op);
  const NcclOpName* op = find_op(call.op);
  if (!op) workload_error(fmt::format("{}: not a collective hwsim replays; known: {}", where, join(op_names())));
  NcclType type = nccl_type(call.datatype, where);
  CollectiveOp c;
  c.kind = op->kind;
  c.dtype = type.dtype;
  double per_rank = double(call.count) * type.size;
  bool whole = c.kind == CollectiveKind::all_gather || c.kind == CollectiveKind::reduce_scatter ||
               c.kind == CollectiveKind::all_to_all;
  c.bytes = whole ? per_rank * double(call.nranks) : per_rank;
  c.ranks = c.kind == CollectiveKind::send_recv ? 2 : call.nranks;
  c.reverse = call.op == "Recv";  // the data flows from the peer to this rank
  if (c.bytes > 1e15)
    workload_error(fmt::format("{}: count {} of {} on {} ranks is {} bytes, more than 1 PB", where, call.count, type.name,
                               call.nranks, c.bytes));
  return c;
}

Workload nccl_log_workload(const NcclLog& log, std::int64_t world) {
  struct Kept {
    const NcclCall* call;
    CollectiveOp op;
  };
  std::vector<Kept> kept;
  std::int64_t largest = 0;
  const NcclCall* largest_call = nullptr;
  std::set<std::int64_t> groups;
  bool p2p = false;
  for (const NcclCall& call : log.calls) {
    if (call.nranks < 2 || call.count == 0) continue;  // no data crosses a link
    CollectiveOp c = nccl_collective(call, log.source);
    if (call.nranks > largest) largest = call.nranks, largest_call = &call;
    if (c.kind == CollectiveKind::send_recv) p2p = true;
    else groups.insert(call.nranks);
    kept.push_back({&call, c});
  }
  if (kept.empty())
    workload_error(fmt::format("{}: none of the {} collective call(s) of rank {} moves data between ranks (each is on "
                               "a 1-rank communicator or of 0 elements)", log.source, log.calls.size(), log.rank));
  if (world == 0) world = largest;
  if (world < largest)
    workload_error(fmt::format("{}: ranks={} is fewer than the {} ranks of the communicator of line {}", log.source, world,
                               largest, largest_call->line));
  groups.erase(world);
  if (groups.size() > 1) {
    std::vector<std::string> sizes;
    for (auto g : groups) sizes.push_back(std::to_string(g));
    workload_error(fmt::format("{}: collectives among {} ranks within {}: a replay places one group size below the "
                               "whole (as tensor-parallel groups); replay one communicator's calls at a time",
                               log.source, join(sizes, " and "), world));
  }
  TraceLayout layout = trace_layout(world, groups.empty() ? 0 : *groups.begin(), p2p, log.source);
  Workload w;
  w.parallel = layout.parallel();
  WorkloadStep step{std::filesystem::path(log.source).filename().string(), {}};
  std::optional<OpVertex> previous;
  for (Kept& k : kept) {
    layout.place(k.op, k.call->nranks);
    Op op{fmt::format("{}@{}", k.call->op, k.call->line), "collective", k.op};
    std::vector<OpVertex> inputs;
    if (previous) inputs.push_back(*previous);
    previous = add_op(step.graph, std::move(op), inputs);
  }
  w.steps.push_back(std::move(step));
  return w;
}

namespace {

Workload build_nccl_log(const WorkloadSpec& spec) {
  std::string path = spec.word("file", "");
  std::int64_t world = spec.positive_int("ranks", 0);
  spec.reject_unused({"file", "ranks"});
  if (path.empty())
    workload_error(fmt::format("workload '{}': file: missing (an NCCL log written with NCCL_DEBUG=INFO "
                               "NCCL_DEBUG_SUBSYS=COLL)", spec.text()));
  std::ifstream in = open_trace_file(path, "NCCL log");
  return nccl_log_workload(parse_nccl_log(in, path), world);
}

HWSIM_REGISTER_WORKLOAD("nccl_log",
                        "replay an NCCL debug log (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL) on a --system: file=PATH, "
                        "ranks=N (default: the largest communicator); one rank's calls (the first line's process, "
                        "its lowest [DEV]) as one chain of collectives, counts as nccl-tests sizes",
                        build_nccl_log);

}  // namespace
}  // namespace hwsim
