// Chakra's binary execution trace (.et): protobuf messages of schema/protobuf/et_def.proto, each
// after its length as a varint (chakra's protolib encodeMessage) — the GlobalMetadata, then every
// Node. Decoded here from the wire format (varint, 64-bit, length-delimited and 32-bit fields),
// reading the fields parse_chakra_json reads and skipping the rest.
#include <cstring>
#include <fmt/format.h>

#include "sim/error.h"
#include "workloads/traces/chakra.h"
#include "workloads/traces/trace_common.h"

namespace hwsim {
namespace {

enum Wire : std::uint32_t { varint = 0, i64 = 1, len = 2, i32 = 5 };

// A cursor over one message's bytes; every read is bounded by the message and names its place.
class Reader {
 public:
  // `of`: what the byte offsets count in ("the file", "its body": a message's bytes after its length).
  Reader(std::string_view bytes, const std::string& where, const char* of = "its body")
      : bytes_(bytes), where_(where), of_(of) {}
  bool done() const { return at_ == bytes_.size(); }
  [[noreturn]] void fail(const std::string& what) const {
    workload_error(fmt::format("{} (byte {} of {}): {}: not a Chakra .et file, or a damaged one", where_, at_, of_,
                               what));
  }
  std::uint64_t read_varint() {
    std::uint64_t x = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (done()) fail("a varint runs past the end");
      auto c = std::uint8_t(bytes_[at_++]);
      x |= std::uint64_t(c & 0x7f) << shift;
      if (c < 0x80) return x;
    }
    fail("a varint longer than 10 bytes");
  }
  std::uint64_t read_fixed(std::size_t size) {
    if (bytes_.size() - at_ < size) fail("a fixed-size field runs past the end");
    std::uint64_t x = 0;
    for (std::size_t i = 0; i < size; ++i) x |= std::uint64_t(std::uint8_t(bytes_[at_ + i])) << (8 * i);
    at_ += size;
    return x;
  }
  std::string_view read_bytes() {
    std::uint64_t n = read_varint();
    if (n > bytes_.size() - at_) fail(fmt::format("a field of {} bytes runs past the end", n));
    std::string_view out = bytes_.substr(at_, std::size_t(n));
    at_ += std::size_t(n);
    return out;
  }
  // The next field's number and wire type.
  std::pair<std::uint64_t, std::uint32_t> read_key() {
    std::uint64_t key = read_varint();
    auto wire = std::uint32_t(key & 7);
    if (wire != varint && wire != i64 && wire != len && wire != i32)
      fail(fmt::format("wire type {} (protobuf groups or garbage)", wire));
    if ((key >> 3) == 0) fail("field number 0");
    return {key >> 3, wire};
  }
  void skip(std::uint32_t wire) {
    if (wire == varint) read_varint();
    else if (wire == i64) read_fixed(8);
    else if (wire == i32) read_fixed(4);
    else read_bytes();
  }
  const std::string& where() const { return where_; }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
  const std::string& where_;
  const char* of_;
};

// A repeated uint64 field: packed (one length-delimited run of varints) or one value per key.
void read_ids(Reader& r, std::uint32_t wire, std::vector<std::uint64_t>& out) {
  if (wire == varint) {
    out.push_back(r.read_varint());
    return;
  }
  if (wire != len) r.fail("a dependency list that is neither packed nor varints");
  Reader packed(r.read_bytes(), r.where(), "a dependency list");
  while (!packed.done()) out.push_back(packed.read_varint());
}

// An AttributeProto's whole-number value (any integer kind, or a bool); nullopt for another kind
// (a string, a list) or a negative number.
struct Attribute {
  std::string name;
  std::optional<std::int64_t> number;
  std::optional<std::string> text;
};

std::int64_t zigzag(std::uint64_t x) { return std::int64_t(x >> 1) ^ -std::int64_t(x & 1); }

Attribute read_attribute(std::string_view bytes, const std::string& where) {
  Reader r(bytes, where);
  Attribute a;
  while (!r.done()) {
    auto [field, wire] = r.read_key();
    if (field == 1 && wire == len) a.name = std::string(r.read_bytes());
    else if ((field == 7 || field == 9 || field == 11 || field == 13 || field == 27) && wire == varint)
      a.number = std::int64_t(r.read_varint());  // int32/int64/uint32/uint64/bool
    else if ((field == 15 || field == 17) && wire == varint) a.number = zigzag(r.read_varint());
    else if ((field == 19 || field == 23) && wire == i32) {
      auto v = std::uint32_t(r.read_fixed(4));
      a.number = field == 19 ? std::int64_t(v) : std::int64_t(std::int32_t(v));
    } else if ((field == 21 || field == 25) && wire == i64) a.number = std::int64_t(r.read_fixed(8));
    else if (field == 29 && wire == len) a.text = std::string(r.read_bytes());
    else r.skip(wire);
  }
  return a;
}

// The node attributes chakra's feeder reads (chakra.h), and pg_name.
void take_attribute(ChakraNode& n, const Attribute& a, const Reader& r) {
  if (a.name == "is_cpu_op") {
    n.is_cpu_op = a.number.value_or(0) != 0;
    return;
  }
  if (a.name == "pg_name") {
    if (a.text) n.pg_name = *a.text;
    return;
  }
  std::optional<std::uint64_t>* target = a.name == "comm_type"     ? &n.comm_type
                                         : a.name == "comm_size"   ? &n.comm_size
                                         : a.name == "num_ops"     ? &n.num_ops
                                         : a.name == "tensor_size" ? &n.tensor_size
                                                                   : nullptr;
  if (!target) return;
  if (!a.number || *a.number < 0)
    r.fail(fmt::format("node {}: attribute {} is not a whole number >= 0", n.id, a.name));
  *target = std::uint64_t(*a.number);
}

ChakraNode read_node(std::string_view bytes, std::size_t index, const std::string& where) {
  ChakraNode n;
  n.line = index;
  Reader r(bytes, where);
  std::optional<std::uint64_t> type;
  while (!r.done()) {
    auto [field, wire] = r.read_key();
    if (field == 1 && wire == varint) n.id = r.read_varint();
    else if (field == 2 && wire == len) n.name = std::string(r.read_bytes());
    else if (field == 3 && wire == varint) type = r.read_varint();
    else if (field == 4) read_ids(r, wire, n.ctrl_deps);
    else if (field == 5) read_ids(r, wire, n.data_deps);
    else if (field == 7 && wire == varint) n.duration_micros = r.read_varint();
    else if (field == 10 && wire == len) take_attribute(n, read_attribute(r.read_bytes(), where), r);
    else r.skip(wire);
  }
  if (!type || *type == 0 || *type > std::uint64_t(ChakraNodeType::coll))
    r.fail(fmt::format("node {}: type {} is not a Chakra NodeType (1 METADATA_NODE ... 7 COMM_COLL_NODE)", n.id,
                       type ? std::to_string(*type) : "missing"));
  n.type = ChakraNodeType(*type);
  return n;
}

// The GlobalMetadata: field 1 the version, 2 its attributes; no field a Node has as a varint.
bool is_metadata(std::string_view bytes, const std::string& where, std::string& schema) {
  Reader r(bytes, where);
  while (!r.done()) {
    auto [field, wire] = r.read_key();
    if (wire != len || field > 2) return false;
    std::string_view body = r.read_bytes();
    if (field == 2) {
      Attribute a = read_attribute(body, where);
      if (a.name == "schema" && a.text) schema = *a.text;
    }
  }
  return true;
}

}  // namespace

bool looks_like_chakra_json(const std::string& text) {
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    return c == '{';
  }
  return false;
}

ChakraTrace parse_chakra_et(const std::string& bytes, const std::string& source) {
  ChakraTrace trace;
  trace.source = source;
  trace.binary = true;
  std::string where = source;
  Reader stream(bytes, where, "the file");
  for (std::size_t index = 0; !stream.done(); ++index) {
    where = fmt::format("{}: message {}", source, index);
    std::string_view message = stream.read_bytes();
    if (index == 0 && is_metadata(message, where, trace.schema)) continue;
    if (trace.nodes.size() >= kMaxTraceOps)
      workload_error(fmt::format("{}: more than {} nodes; replay a shorter trace", source, kMaxTraceOps));
    trace.nodes.push_back(read_node(message, index, where));
  }
  if (trace.nodes.empty())
    workload_error(fmt::format("{}: no Chakra nodes (expected the GlobalMetadata, then nodes, each after its length)",
                               source));
  return trace;
}

}  // namespace hwsim
