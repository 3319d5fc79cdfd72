#include "workloads/passes/xla_fusion.h"

#include <algorithm>
#include <numeric>
#include <string_view>

#include "workloads/passes/framework_pass.h"

namespace hwsim {

namespace {

constexpr std::string_view kElementwiseClass = "elementwise";
constexpr std::string_view kNormClass = "norm";
constexpr std::string_view kCacheWriteName = "kv_append";

// True when one dot-separated component of the op's name is "kv_append" ("L3.kv_append",
// "L3.kv_append.k"): a write into the KV cache, which stays an op of its own.
bool is_cache_write(const Op& op) {
  std::string_view name = op.name;
  while (!name.empty()) {
    std::size_t dot = name.find('.');
    if (name.substr(0, dot) == kCacheWriteName) return true;
    if (dot == std::string_view::npos) break;
    name.remove_prefix(dot + 1);
  }
  return false;
}

// An op that may join its producer's fusion.
bool is_absorbable(const Op& op) {
  return op.op_class == kElementwiseClass && std::holds_alternative<StreamOp>(op.shape) && !is_cache_write(op);
}

// An op that may start a fusion that absorbs elementwise consumers.
bool can_host(const Op& op) {
  if (std::holds_alternative<GemmOp>(op.shape)) return true;
  return is_absorbable(op) || (op.op_class == kNormClass && std::holds_alternative<StreamOp>(op.shape));
}

// Bytes of the op's own output tensor(s), as its shape writes them.
double output_bytes(const Op& op) {
  if (const auto* g = std::get_if<GemmOp>(&op.shape))
    return double(g->groups) * double(g->m) * double(g->n) * bytes_per_element(g->out);
  if (const auto* s = std::get_if<StreamOp>(&op.shape)) return s->bytes_written;
  return 0;
}

// True when v is the only op consuming u's output (u may feed v through several edges).
bool sole_consumer(const OpGraph& g, OpVertex u, OpVertex v) {
  for (auto [it, end] = boost::out_edges(u, g); it != end; ++it)
    if (boost::target(*it, g) != v) return false;
  return true;
}

// Which fusion each op belongs to. members[r]: the ops of the fusion rooted at r, host first
// then absorbed ops in the order they joined (a chain); empty when r joined another fusion.
struct FusionPlan {
  std::vector<OpVertex> root_of;
  std::vector<std::vector<OpVertex>> members;
};

// The fusion `v` joins (its root), or v itself when no producer qualifies (header: "joining").
OpVertex host_for(const OpGraph& g, const FusionPlan& plan, OpVertex v) {
  if (!is_absorbable(g[v])) return v;
  OpVertex chosen = v;
  for (auto [it, end] = boost::in_edges(v, g); it != end; ++it) {
    OpVertex u = boost::source(*it, g);
    OpVertex root = plan.root_of[u];
    bool u_is_output = plan.members[root].back() == u;
    if (!can_host(g[root]) || !u_is_output || !sole_consumer(g, u, v)) continue;
    if (std::holds_alternative<GemmOp>(g[root].shape)) return root;  // epilogue fusion first
    if (chosen == v) chosen = root;
  }
  return chosen;
}

FusionPlan plan_fusions(const OpGraph& g) {
  std::size_t n = boost::num_vertices(g);
  FusionPlan plan;
  plan.root_of.resize(n);
  plan.members.resize(n);
  for (OpVertex v : execution_order(g)) {
    OpVertex root = host_for(g, plan, v);
    plan.root_of[v] = root;
    plan.members[root].push_back(v);
  }
  return plan;
}

// Moves work an absorbed op had already absorbed (an earlier fusion) onto the host.
void carry_fused(FusedWork& host, const FusedWork& absorbed) {
  host.ops.insert(host.ops.end(), absorbed.ops.begin(), absorbed.ops.end());
  host.vector_flops += absorbed.vector_flops;
  host.extra_bytes_read += absorbed.extra_bytes_read;
  host.extra_bytes_written += absorbed.extra_bytes_written;
}

// The fused op of one fusion (header: "Folding a fusion").
Op fold_fusion(const OpGraph& g, const std::vector<OpVertex>& members) {
  Op host = g[members.front()];
  const double host_output = output_bytes(host);
  double produced = host_output, extra_read = 0, flops = 0;
  for (std::size_t i = 1; i < members.size(); ++i) {
    const Op& absorbed = g[members[i]];
    const auto& s = std::get<StreamOp>(absorbed.shape);
    extra_read += std::max(0.0, s.bytes_read - produced);
    produced = s.bytes_written;
    flops += s.flops;
    host.fused.ops.push_back(absorbed.name);
    carry_fused(host.fused, absorbed.fused);
  }
  if (members.size() == 1) return host;
  host.output_tensor = g[members.back()].output_tensor;
  if (auto* s = std::get_if<StreamOp>(&host.shape)) {
    s->bytes_read += extra_read;
    s->bytes_written = produced;
    s->flops += flops;
  } else {
    host.fused.vector_flops += flops;
    host.fused.extra_bytes_read += extra_read;
    // Negative when the epilogue writes less than the GEMM's own output (a gated activation
    // halves it): the fused op writes only the final tensor.
    host.fused.extra_bytes_written += produced - host_output;
  }
  return host;
}

// The fused op's inputs in the new graph (header: "Edges"). new_vertex[r]: the new vertex of the
// fusion rooted at r, set for every fusion placed before this one.
std::vector<OpVertex> fusion_inputs(const OpGraph& g, const FusionPlan& plan, OpVertex root,
                                    const std::vector<OpVertex>& new_vertex) {
  std::vector<OpVertex> inputs;
  const auto& members = plan.members[root];
  for (std::size_t i = 0; i < members.size(); ++i) {
    for (auto [it, end] = boost::in_edges(members[i], g); it != end; ++it) {
      OpVertex from = plan.root_of[boost::source(*it, g)];
      if (from == root) continue;
      OpVertex input = new_vertex[from];
      bool host_edge = i == 0;  // the host's own edges are copied as they are
      if (host_edge || std::find(inputs.begin(), inputs.end(), input) == inputs.end()) inputs.push_back(input);
    }
  }
  return inputs;
}

OpGraph build_fused_graph(const OpGraph& g, const FusionPlan& plan) {
  // Fusion roots, each placed where its last op stood.
  std::vector<OpVertex> roots;
  for (OpVertex v : execution_order(g))
    if (!plan.members[v].empty()) roots.push_back(v);
  std::stable_sort(roots.begin(), roots.end(),
                   [&](OpVertex a, OpVertex b) { return plan.members[a].back() < plan.members[b].back(); });
  OpGraph out;
  std::vector<OpVertex> new_vertex(boost::num_vertices(g));
  for (OpVertex root : roots) {
    std::vector<OpVertex> inputs = fusion_inputs(g, plan, root, new_vertex);
    new_vertex[root] = add_op(out, fold_fusion(g, plan.members[root]), inputs);
  }
  return out;
}

}  // namespace

OpGraph xla_fuse(const OpGraph& graph) { return build_fused_graph(graph, plan_fusions(graph)); }

HWSIM_REGISTER_FRAMEWORK("xla",
                         "XLA-style fusion: elementwise ops fused into the GEMM they follow (epilogue) "
                         "or into one vector pass with their elementwise or norm producer",
                         xla_fuse);

}  // namespace hwsim
