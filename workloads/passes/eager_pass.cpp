// The "eager" and "fused" framework passes (framework_pass.h).
//   eager: PyTorch eager launches one kernel per torch op, so every composite op (Op::parts) is
//          replaced, in place, by its parts; consumers of the composite read its last part.
//   fused: a serving engine's fused kernels: the graph as built (one kernel per composite).
// Both keep every other op, its name and its in-edge order, and insertion (execution) order.
#include <vector>

#include "workloads/passes/framework_pass.h"

namespace hwsim {
namespace {

// Adds `op`'s parts to `out`; `inputs` are the composite's in-edges (already in `out`). Returns
// the vertex of the last part.
OpVertex add_parts(OpGraph& out, const Op& op, const std::vector<OpVertex>& inputs) {
  std::vector<OpVertex> made;
  for (const OpPart& part : op.parts) {
    std::vector<OpVertex> from;
    for (int i : part.inputs) from.push_back(i >= 0 ? made.at(std::size_t(i)) : inputs.at(std::size_t(-i - 1)));
    Op piece(part.name, op.op_class, part.shape);
    piece.stage = op.stage;
    made.push_back(add_op(out, std::move(piece), from));
  }
  return made.back();
}

// Vertices are visited in insertion order, which is execution order (op_graph.h), without
// building an order vector: this pass runs once per step of long generations.
bool has_composites(const OpGraph& g) {
  for (auto [v, end] = boost::vertices(g); v != end; ++v)
    if (!g[*v].parts.empty()) return true;
  return false;
}

std::optional<OpGraph> eager(const OpGraph& in) {
  if (!has_composites(in)) return std::nullopt;
  OpGraph out;
  std::vector<OpVertex> mapped(boost::num_vertices(in));
  std::vector<OpVertex> inputs;
  for (auto [it, last] = boost::vertices(in); it != last; ++it) {
    OpVertex v = *it;
    inputs.clear();
    for (auto [e, end] = boost::in_edges(v, in); e != end; ++e) inputs.push_back(mapped[boost::source(*e, in)]);
    const Op& op = in[v];
    if (op.parts.empty()) {
      mapped[v] = add_op(out, op, inputs);
    } else {
      mapped[v] = add_parts(out, op, inputs);
    }
  }
  return out;
}

std::optional<OpGraph> fused(const OpGraph&) { return std::nullopt; }

}  // namespace

HWSIM_REGISTER_FRAMEWORK("eager", "PyTorch eager: one kernel per torch op (RoPE 10, SiLU·mul 2, KV append 2)",
                         eager);
HWSIM_REGISTER_FRAMEWORK("fused", "a serving engine's fused kernels: one kernel per composite op (RoPE, SiLU·mul, "
                                  "KV append)", fused);

}  // namespace hwsim
