// XLA pass, epilogue fusion: an elementwise op that is a GEMM's only consumer runs in the GEMM's
// epilogue; the fused op reads only what the elementwise op read beyond the GEMM's output.
#include <doctest/doctest.h>

#include "tests/unit/u6_graph_support.h"

#include "workloads/passes/framework_pass.h"
#include "workloads/passes/xla_fusion.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {

constexpr std::int64_t kTokens = 4, kHidden = 4096, kInner = 512;
constexpr double kBf16 = 2;  // bytes per bf16 element
constexpr double kRowBytes = double(kTokens * kHidden) * kBf16;  // one [T, hidden] bf16 tensor

Op stream_op(const std::string& name, const std::string& op_class, double read, double written, double flops) {
  StreamOp s;
  s.bytes_read = read, s.bytes_written = written, s.flops = flops, s.rows = kTokens;
  return Op(name, op_class, s);
}

Op gemm_op(const std::string& name, std::int64_t n, std::int64_t k) {
  GemmOp g;
  g.m = kTokens, g.n = n, g.k = k;
  return Op(name, "gemm", g);
}

// A transformer block's shape: skip → act (a norm) → o_proj; residual(skip, o_proj). The skip
// tensor has two consumers, so it is materialised.
OpGraph residual_block(bool gemm_has_second_consumer) {
  OpGraph g;
  OpVertex skip = add_op(g, stream_op("skip", "elementwise", 0, kRowBytes, 0));
  OpVertex act = add_op(g, stream_op("act", "norm", kRowBytes, double(kTokens * kInner) * kBf16, 0), {skip});
  OpVertex o = add_op(g, gemm_op("o_proj", kHidden, kInner), {act});
  add_op(g, stream_op("residual", "elementwise", 2 * kRowBytes, kRowBytes, double(kTokens * kHidden)), {skip, o});
  if (gemm_has_second_consumer) add_op(g, stream_op("probe", "norm", kRowBytes, kRowBytes, 0), {o});
  return g;
}

}  // namespace

TEST_CASE("xla epilogue: a GEMM followed by a residual add becomes one op reading the skip input") {
  OpGraph before = residual_block(false);
  OpGraph after = xla_fuse(before);
  REQUIRE(boost::num_vertices(after) == 3);
  std::vector<OpVertex> order = execution_order(after);
  const Op& fused = after[order.back()];
  CHECK(fused.name == "o_proj");
  CHECK(fused.op_class == "gemm");
  CHECK(fused.fused.ops == std::vector<std::string>{"residual"});
  CHECK(fused.fused.vector_flops == doctest::Approx(double(kTokens * kHidden)));
  CHECK(fused.fused.extra_bytes_read == doctest::Approx(kRowBytes));  // the skip input only
  CHECK(fused.fused.extra_bytes_written == 0);                         // writes what the GEMM wrote
  // Main input first (act), then the absorbed op's other input (skip).
  REQUIRE(boost::in_degree(order.back(), after) == 2);
  auto [in, in_end] = boost::in_edges(order.back(), after);
  CHECK(after[boost::source(*in, after)].name == "act");
  CHECK(after[boost::source(*std::next(in), after)].name == "skip");
  // The [T, hidden] intermediate is neither written nor read back.
  CHECK(total(after, op_flops) == doctest::Approx(total(before, op_flops)));
  CHECK(total(after, op_min_bytes) == doctest::Approx(total(before, op_min_bytes) - 2 * kRowBytes));
}

TEST_CASE("xla epilogue: the GEMM wins over an elementwise producer that could host the add") {
  // skip's only consumer is the residual (no norm reads it here): loop fusion into skip would be
  // allowed, but epilogue fusion into the GEMM goes first.
  OpGraph before;
  OpVertex skip = add_op(before, stream_op("skip", "elementwise", 0, kRowBytes, 0));
  OpVertex act = add_op(before, stream_op("act", "norm", 0, double(kTokens * kInner) * kBf16, 0));
  OpVertex o = add_op(before, gemm_op("o_proj", kHidden, kInner), {act});
  add_op(before, stream_op("residual", "elementwise", 2 * kRowBytes, kRowBytes, double(kTokens * kHidden)), {skip, o});
  OpGraph after = xla_fuse(before);
  REQUIRE(boost::num_vertices(after) == 3);
  std::vector<OpVertex> order = execution_order(after);
  CHECK(after[order[0]].fused.empty());
  CHECK(after[order.back()].name == "o_proj");
  CHECK(after[order.back()].fused.ops == std::vector<std::string>{"residual"});
}

TEST_CASE("xla epilogue: a GEMM output with two consumers is materialised, not fused") {
  OpGraph before = residual_block(true);
  OpGraph after = xla_fuse(before);
  REQUIRE(boost::num_vertices(after) == boost::num_vertices(before));
  for (OpVertex v : execution_order(after)) CHECK(after[v].fused.empty());
  CHECK(total(after, op_min_bytes) == doctest::Approx(total(before, op_min_bytes)));
}

TEST_CASE("xla epilogue: SiLU-mul writing half the GEMM's output saves the other half of the write") {
  OpGraph before;
  OpVertex x = add_op(before, stream_op("x", "norm", 0, kRowBytes, 0));
  OpVertex up = add_op(before, gemm_op("gate_up", 2 * kInner, kHidden), {x});
  double up_bytes = double(kTokens * 2 * kInner) * kBf16;
  add_op(before, stream_op("silu_mul", "elementwise", up_bytes, up_bytes / 2, double(5 * kTokens * kInner)), {up});
  OpGraph after = xla_fuse(before);
  REQUIRE(boost::num_vertices(after) == 2);
  const Op& fused = after[execution_order(after).back()];
  CHECK(fused.name == "gate_up");
  CHECK(fused.fused.ops == std::vector<std::string>{"silu_mul"});
  CHECK(fused.fused.extra_bytes_read == 0);
  CHECK(fused.fused.extra_bytes_written == doctest::Approx(-up_bytes / 2));  // only silu·mul's output is written
  CHECK(op_min_bytes(fused) == doctest::Approx(shape_min_bytes(before[up]) - up_bytes / 2));
  CHECK(total(after, op_flops) == doctest::Approx(total(before, op_flops)));
  CHECK(total(after, op_min_bytes) < total(before, op_min_bytes));
}

TEST_CASE("xla epilogue: the pass is registered as \"xla\" and never merges a GEMM with attention") {
  OpGraph before;
  AttentionOp a;
  a.heads = 8, a.kv_heads = 8, a.kv_len = 64;
  OpVertex attn = add_op(before, Op("attention", "attention", a));
  add_op(before, gemm_op("o_proj", kHidden, kInner), {attn});
  OpGraph after = FrameworkPasses::get("xla").apply(before).value();
  REQUIRE(boost::num_vertices(after) == 2);
  for (OpVertex v : execution_order(after)) CHECK(after[v].fused.empty());
  CHECK(boost::num_edges(after) == 1);
}
