#include "run/serving/serving_op_memo.h"

#include <fmt/format.h>

#include <set>
#include <stdexcept>

namespace hwsim {

namespace {

std::string shape_text(const Op::Shape& shape) {
  return std::visit(
      [](const auto& s) -> std::string {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, GemmOp>)
          return fmt::format("gemm {} {} {} {} {} {} {} {}", s.m, s.n, s.k, s.groups, int(s.a), int(s.b), int(s.out),
                             int(s.acc));
        else if constexpr (std::is_same_v<T, StreamOp>)
          return fmt::format("stream {:a} {:a} {:a} {}", s.bytes_read, s.bytes_written, s.flops, s.rows);
        else if constexpr (std::is_same_v<T, AttentionOp>)
          return fmt::format("attention {} {} {} {} {} {} {} {} {} {}", s.batch, s.heads, s.kv_heads, s.head_dim, s.q_len,
                             s.kv_len, s.causal, s.window, int(s.dtype), int(s.kv_dtype));
        else if constexpr (std::is_same_v<T, CollectiveOp>)
          return fmt::format("collective {} {:a} {} {} {} {} {} {} {}", int(s.kind), s.bytes, int(s.axis), s.ranks,
                             int(s.dtype), s.algo, s.proto, s.async, s.reverse);
        else if constexpr (std::is_same_v<T, RecordedOp>)
          return fmt::format("recorded {:a}", s.seconds);
        else
          return fmt::format("conv {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {}", s.batch, s.in_h, s.in_w, s.in_c,
                             s.out_c, s.kernel_h, s.kernel_w, s.stride_h, s.stride_w, s.pad_top, s.pad_bottom,
                             s.pad_left, s.pad_right, s.groups, int(s.a), int(s.b), int(s.out));
      },
      shape);
}

}  // namespace

std::string op_signature(const Op& op) {
  std::string s = op.op_class + " " + shape_text(op.shape);
  for (const OpPart& p : op.parts) s += " | " + p.name + " " + shape_text(p.shape);
  for (const std::string& f : op.fused.ops) s += " + " + f;
  if (!op.fused.empty())
    s += fmt::format(" {:a} {:a} {:a}", op.fused.vector_flops, op.fused.extra_bytes_read, op.fused.extra_bytes_written);
  return s;
}

std::vector<OpVertex> OpMemo::unknown(const OpGraph& g, const std::vector<OpVertex>& order) const {
  std::vector<OpVertex> out;
  std::set<std::string> taken;
  for (OpVertex v : order) {
    std::string sig = op_signature(g[v]);
    if (!ops_.count(sig) && taken.insert(sig).second) out.push_back(v);
  }
  return out;
}

void OpMemo::learn(const OpGraph& g, const std::vector<OpVertex>& probed, const std::vector<WorkRecord>& records,
                   double fastest_level) {
  std::unordered_map<std::string, std::size_t> by_name;
  for (std::size_t i = 0; i < probed.size(); ++i) by_name.emplace(g[probed[i]].name, i);
  std::vector<Learned> of(probed.size());
  std::size_t current = 0;
  for (WorkRecord r : records) {
    // The op's own name, or an op's whose name prefixes it ("L0.rope" for "L0.rope.q.neg").
    for (std::string name = r.name;; name.erase(name.rfind('.'))) {
      if (auto it = by_name.find(name); it != by_name.end()) {
        current = it->second;
        break;
      }
      if (name.rfind('.') == std::string::npos) break;
    }
    finalize_record(r, fastest_level);
    of[current].seconds += r.end - r.start;
    of[current].totals.add(r);
  }
  for (std::size_t i = 0; i < probed.size(); ++i) ops_.emplace(op_signature(g[probed[i]]), std::move(of[i]));
}

const OpMemo::Learned& OpMemo::learned(const OpGraph& g, OpVertex v) const {
  auto it = ops_.find(op_signature(g[v]));
  if (it == ops_.end()) throw std::logic_error("OpMemo: an op of unknown shape: " + g[v].name);
  return it->second;
}

double OpMemo::seconds(const OpGraph& g, const std::vector<OpVertex>& order) const {
  double sum = 0;
  for (OpVertex v : order) sum += learned(g, v).seconds;
  return sum;
}

RunTotals OpMemo::totals(const OpGraph& g, const std::vector<OpVertex>& order) const {
  RunTotals sum;
  for (OpVertex v : order) sum.add(learned(g, v).totals);
  return sum;
}

}  // namespace hwsim
