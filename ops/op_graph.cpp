#include "ops/op_graph.h"

#include <stdexcept>

namespace hwsim {

OpVertex add_op(OpGraph& graph, Op op, const std::vector<OpVertex>& inputs) {
  OpVertex v = boost::add_vertex(std::move(op), graph);
  for (OpVertex in : inputs) {
    if (in >= v) throw std::logic_error("add_op: an input must be added before its consumer");
    boost::add_edge(in, v, graph);
  }
  return v;
}

// add_op() only accepts inputs that already exist, so insertion order is a topological order;
// it is also the order a framework issues the kernels on one stream.
std::vector<OpVertex> execution_order(const OpGraph& graph) {
  std::vector<OpVertex> order;
  order.reserve(boost::num_vertices(graph));
  for (auto [it, end] = boost::vertices(graph); it != end; ++it) order.push_back(*it);
  return order;
}

}  // namespace hwsim
