#include "ops/footprint.h"

#include <variant>

namespace hwsim {
namespace {
template <class... F> struct Overload : F... { using F::operator()...; };
template <class... F> Overload(F...) -> Overload<F...>;

// TFLite int8 fully connected and conv layers keep an int32 bias per output.
constexpr double kInt8BiasBytes = 4;
}  // namespace

double op_weight_bytes(const Op& op) {
  if (const auto* c = std::get_if<ConvOp>(&op.shape)) return conv_weight_bytes(*c);
  if (const auto* g = std::get_if<GemmOp>(&op.shape)) {
    double bias = g->b == DType::int8 ? kInt8BiasBytes * double(g->n) : 0;
    return double(g->groups) * (double(g->n) * double(g->k) * bytes_per_element(g->b) + bias);
  }
  return 0;
}

double op_activation_output_bytes(const Op& op) {
  return std::visit(Overload{
      [](const GemmOp& g) { return double(g.groups) * double(g.m) * double(g.n) * bytes_per_element(g.out); },
      [](const StreamOp& s) { return s.bytes_written; },
      [](const AttentionOp& a) {
        return double(a.batch) * double(a.heads) * double(a.q_len) * double(a.head_dim) * bytes_per_element(a.dtype);
      },
      [](const CollectiveOp&) { return 0.0; },
      [](const ConvOp& c) { return conv_output_bytes(c); },
      [](const RecordedOp&) { return 0.0; },
  }, op.shape);
}

double op_activation_input_bytes(const Op& op) {
  if (const auto* c = std::get_if<ConvOp>(&op.shape)) return conv_input_bytes(*c);
  if (const auto* g = std::get_if<GemmOp>(&op.shape))
    return double(g->groups) * double(g->m) * double(g->k) * bytes_per_element(g->a);
  if (const auto* s = std::get_if<StreamOp>(&op.shape)) return s->bytes_read;
  return shape_min_bytes(op) - op_activation_output_bytes(op);
}

ArenaPlan plan_arena(const OpGraph& graph, const std::vector<OpVertex>& order) {
  std::size_t n = order.size();
  std::vector<std::size_t> position(boost::num_vertices(graph), 0), last_use(n, 0);
  for (std::size_t i = 0; i < n; ++i) position[order[i]] = i;
  ArenaPlan plan;
  for (std::size_t i = 0; i < n; ++i) {
    OpVertex v = order[i];
    plan.weight_bytes += op_weight_bytes(graph[v]);
    last_use[i] = boost::out_degree(v, graph) == 0 ? n : i;  // a model output lives to the end
    for (auto e : boost::make_iterator_range(boost::out_edges(v, graph)))
      last_use[i] = std::max(last_use[i], position[boost::target(e, graph)]);
  }
  plan.live.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    OpVertex v = order[i];
    double out = op_activation_output_bytes(graph[v]);
    for (std::size_t t = i; t < std::min(last_use[i] + 1, n); ++t) plan.live[t] += out;
    if (boost::in_degree(v, graph) == 0)  // reads the model's input, live from the start
      for (std::size_t t = 0; t <= i; ++t) plan.live[t] += op_activation_input_bytes(graph[v]);
  }
  for (std::size_t i = 0; i < n; ++i)
    if (plan.live[i] > plan.peak) plan.peak = plan.live[i], plan.peak_at = i;
  return plan;
}

}  // namespace hwsim
