// XLA pass determinism: the same input gives the identical output graph (ops, fused work, edges
// in order), the pass leaves its input alone, and a graph with nothing to fuse comes back as is.
#include <doctest/doctest.h>

#include <sstream>

#include "workloads/llm/step_lowering.h"
#include "workloads/passes/xla_fusion.h"

using namespace hwsim;

namespace {

constexpr std::int64_t kContext = 1024, kBatch = 8;

OpGraph step(const std::string& model) {
  LlmStepShape shape;
  shape.batch = kBatch, shape.q_len = 1, shape.kv_len = kContext + 1;
  return lower_llm_step(load_architecture(model), LlmDtypes{}, shape);
}

std::string describe_shape(const Op::Shape& shape) {
  std::ostringstream out;
  out.precision(17);
  if (const auto* g = std::get_if<GemmOp>(&shape))
    out << "gemm " << g->m << ' ' << g->n << ' ' << g->k << ' ' << g->groups << ' ' << int(g->a) << int(g->b)
        << int(g->out);
  if (const auto* s = std::get_if<StreamOp>(&shape))
    out << "stream " << s->bytes_read << ' ' << s->bytes_written << ' ' << s->flops << ' ' << s->rows;
  if (const auto* a = std::get_if<AttentionOp>(&shape))
    out << "attention " << a->batch << ' ' << a->heads << ' ' << a->kv_heads << ' ' << a->head_dim << ' '
        << a->q_len << ' ' << a->kv_len << ' ' << a->causal << ' ' << a->window;
  return out.str();
}

// Every field the pass sets, and each op's in-edges in order, one line per op.
std::string describe(const OpGraph& g) {
  std::ostringstream out;
  out.precision(17);
  for (OpVertex v : execution_order(g)) {
    const Op& op = g[v];
    out << v << ' ' << op.name << ' ' << op.op_class << ' ' << describe_shape(op.shape) << " in=" << op.input_tensor
        << " out=" << op.output_tensor << " parts=" << op.parts.size() << " fused=";
    for (const auto& name : op.fused.ops) out << name << ',';
    out << ' ' << op.fused.vector_flops << ' ' << op.fused.extra_bytes_read << ' ' << op.fused.extra_bytes_written
        << " from=";
    for (auto [it, end] = boost::in_edges(v, g); it != end; ++it) out << boost::source(*it, g) << ',';
    out << '\n';
  }
  return out.str();
}

}  // namespace

TEST_CASE("xla determinism: the same step graph fuses to the identical graph every time") {
  for (const char* model : {"llama3_8b", "mixtral_8x7b"}) {
    CAPTURE(model);
    OpGraph input = step(model);
    std::string first = describe(xla_fuse(input));
    CHECK(describe(xla_fuse(input)) == first);
    CHECK(describe(xla_fuse(step(model))) == first);  // an independently built equal input
  }
}

TEST_CASE("xla determinism: the pass does not modify its input") {
  OpGraph input = step("llama3_8b");
  std::string before = describe(input);
  OpGraph fused = xla_fuse(input);
  CHECK(describe(input) == before);
  CHECK(describe(fused) != before);
}

TEST_CASE("xla determinism: a graph with nothing to fuse comes back unchanged") {
  // GEMM → attention → GEMM: no elementwise op, so nothing moves.
  OpGraph g;
  GemmOp proj;
  proj.m = 4, proj.n = 1024, proj.k = 1024;
  AttentionOp attn;
  attn.heads = 8, attn.kv_heads = 8, attn.kv_len = 128;
  OpVertex q = add_op(g, Op("q_proj", "gemm", proj));
  OpVertex a = add_op(g, Op("attention", "attention", attn), {q});
  add_op(g, Op("o_proj", "gemm", proj), {a});
  CHECK(describe(xla_fuse(g)) == describe(g));
}
