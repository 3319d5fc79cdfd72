#pragma once
// A workload as a DAG of ops (Boost.Graph): an edge u→v means v consumes what u produces.
#include <boost/graph/adjacency_list.hpp>
#include <string>
#include <vector>

#include "ops/op.h"

namespace hwsim {

using OpGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, Op>;
using OpVertex = OpGraph::vertex_descriptor;

// Adds `op` with edges from each of `inputs`; returns the new vertex.
OpVertex add_op(OpGraph& graph, Op op, const std::vector<OpVertex>& inputs = {});

// Refuses, before any is built, a workload graph of about `ops` ops that --max-memory could not
// hold over the run: the graph and the framework pass's lowering of it (workloads/passes: the
// eager pass makes one op or more per op, a fusing pass fewer, so counted as one per op), each op
// as add_op charges it, added to what is charged already. A builder that
// knows its size up front says so in moments, not after building gigabytes. `what` names the graph
// and the input that sized it ("the training step's op graph (microbatches=4096)").
void expect_ops(double ops, const std::string& what);

// A scope whose op graphs are all gone by its end (a serving engine lowers each pass, runs it and
// drops it): the ops added within it are charged while it lasts and released at its end, so a
// run of thousands of passes is charged for the graphs it holds at once, not for every graph it
// ever built. Scopes nest.
class TransientOps {
 public:
  TransientOps();
  ~TransientOps();
  TransientOps(const TransientOps&) = delete;
  TransientOps& operator=(const TransientOps&) = delete;

 private:
  double start_;  // ops charged before the scope
};

// Vertices in an order where every op follows its inputs: insertion order, which add_op() keeps
// topological. Deterministic.
std::vector<OpVertex> execution_order(const OpGraph& graph);

}  // namespace hwsim
