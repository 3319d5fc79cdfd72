#pragma once
// A workload as a DAG of ops (Boost.Graph): an edge u→v means v consumes what u produces.
#include <boost/graph/adjacency_list.hpp>
#include <vector>

#include "ops/op.h"

namespace hwsim {

using OpGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, Op>;
using OpVertex = OpGraph::vertex_descriptor;

// Adds `op` with edges from each of `inputs`; returns the new vertex.
OpVertex add_op(OpGraph& graph, Op op, const std::vector<OpVertex>& inputs = {});

// Vertices in an order where every op follows its inputs: insertion order, which add_op() keeps
// topological. Deterministic.
std::vector<OpVertex> execution_order(const OpGraph& graph);

}  // namespace hwsim
