#include "ops/op_graph.h"

#include <stdexcept>

#include "sim/memory_budget.h"

namespace hwsim {

namespace {
// Host memory an op takes over a run, about: its graph node, the kernels a framework pass makes of
// it, their simulated records (a 512-token generate of Llama-3-8B, 370 MB at its peak).
constexpr double kHostBytesPerOp = 2048;
double ops_charged = 0;  // every add_op's charge so far, less what TransientOps released
}  // namespace

TransientOps::TransientOps() : start_(ops_charged) {}

TransientOps::~TransientOps() {
  release_memory(ops_charged - start_);
  ops_charged = start_;
}

OpVertex add_op(OpGraph& graph, Op op, const std::vector<OpVertex>& inputs) {
  // Every op a process builds counts against --max-memory (sim/memory_budget.h): a spec whose
  // fields multiply into billions of ops (layers × microbatches × steps) stops with its numbers.
  charge_memory(kHostBytesPerOp, "the workload's op graphs");
  ops_charged += kHostBytesPerOp;
  OpVertex v = boost::add_vertex(std::move(op), graph);
  for (OpVertex in : inputs) {
    if (in >= v) throw std::logic_error("add_op: an input must be added before its consumer");
    boost::add_edge(in, v, graph);
  }
  return v;
}

// Copies of a workload graph a run holds: the graph itself and its framework pass's lowering.
constexpr double kGraphCopiesPerRun = 2;

void expect_ops(double ops, const std::string& what) {
  require_memory(memory_charged() + ops * kGraphCopiesPerRun * kHostBytesPerOp, what);
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
