#include "ops/op.h"

#include <algorithm>

namespace hwsim {

namespace {
template <class... F> struct Overload : F... { using F::operator()...; };
template <class... F> Overload(F...) -> Overload<F...>;
}  // namespace

double attention_pairs(const AttentionOp& a) {
  double pairs = 0;
  double q = double(a.q_len), kv = double(a.kv_len);
  if (!a.causal && a.window <= 0) return q * kv;
  // Query i (0-based among the q_len new ones) sits at position kv - q + i and sees keys
  // [max(0, pos - window + 1), pos] when causal, or all kv keys limited by the window otherwise.
  for (std::int64_t i = 0; i < a.q_len; ++i) {
    double pos = kv - q + double(i);
    double visible = a.causal ? pos + 1 : kv;
    if (a.window > 0) visible = std::min(visible, double(a.window));
    pairs += std::max(0.0, visible);
  }
  return pairs;
}

double op_flops(const Op& op) { return shape_flops(op) + op.fused.vector_flops; }

double op_min_bytes(const Op& op) {
  return shape_min_bytes(op) + op.fused.extra_bytes_read + op.fused.extra_bytes_written;
}

double shape_flops(const Op& op) {
  return std::visit(Overload{
      [](const GemmOp& g) { return 2.0 * double(g.m) * double(g.n) * double(g.k) * double(g.groups); },
      [](const StreamOp& s) { return s.flops; },
      [](const AttentionOp& a) {
        // QKᵀ and PV: 2 FLOP per multiply-add each, head_dim long, per visible pair.
        return 4.0 * double(a.batch) * double(a.heads) * double(a.head_dim) * attention_pairs(a);
      },
      [](const CollectiveOp&) { return 0.0; },
      [](const ConvOp& c) { return 2.0 * conv_macs(c); },
      [](const RecordedOp&) { return 0.0; },
  }, op.shape);
}

double shape_min_bytes(const Op& op) {
  return std::visit(Overload{
      [](const GemmOp& g) {
        return double(g.groups) * (double(g.m) * double(g.k) * bytes_per_element(g.a) +
                                   double(g.n) * double(g.k) * bytes_per_element(g.b) +
                                   double(g.m) * double(g.n) * bytes_per_element(g.out));
      },
      [](const StreamOp& s) { return s.bytes_read + s.bytes_written; },
      [](const AttentionOp& a) {
        double q_and_o = 2.0 * double(a.batch) * double(a.heads) * double(a.q_len) * double(a.head_dim) *
                         bytes_per_element(a.dtype);
        double kv_read = a.window > 0 ? std::min(double(a.kv_len), double(a.window) + double(a.q_len) - 1)
                                      : double(a.kv_len);
        double k_and_v = 2.0 * double(a.batch) * double(a.kv_heads) * kv_read * double(a.head_dim) *
                         bytes_per_element(a.kv_dtype);
        return q_and_o + k_and_v;
      },
      [](const CollectiveOp&) { return 0.0; },
      [](const ConvOp& c) { return conv_input_bytes(c) + conv_weight_bytes(c) + conv_output_bytes(c); },
      [](const RecordedOp&) { return 0.0; },
  }, op.shape);
}

bool is_collective(const Op& op) { return std::holds_alternative<CollectiveOp>(op.shape); }
bool is_recorded(const Op& op) { return std::holds_alternative<RecordedOp>(op.shape); }

}  // namespace hwsim
