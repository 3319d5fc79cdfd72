// XLA pass, loop fusion: a chain of elementwise ops, each the only consumer of the one before,
// becomes one vector pass named after its first op; a tensor with two consumers stops the chain.
#include <doctest/doctest.h>

#include "tests/unit/u6_graph_support.h"

#include "workloads/passes/xla_fusion.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {

constexpr double kTensor = 1 << 20;  // bytes of one activation tensor
constexpr double kTable = 1 << 10;   // bytes of a small side input (a table, a scale)
constexpr double kFlops = 1 << 18;   // vector FLOPs of one elementwise op

Op stream_op(const std::string& name, const std::string& op_class, double read, double written, double flops) {
  StreamOp s;
  s.bytes_read = read, s.bytes_written = written, s.flops = flops;
  return Op(name, op_class, s);
}

Op attention_op() {
  AttentionOp a;
  a.heads = 8, a.kv_heads = 8, a.kv_len = 64;
  return Op("attention", "attention", a);
}

}  // namespace

TEST_CASE("xla loop fusion: three elementwise ops in a chain become one op") {
  // attention (hosts nothing) → e1 → e2 (also reads a table) → e3 (writes half) → sink
  OpGraph before;
  OpVertex src = add_op(before, attention_op());
  OpVertex e1 = add_op(before, stream_op("e1", "elementwise", kTensor, kTensor, kFlops), {src});
  OpVertex e2 = add_op(before, stream_op("e2", "elementwise", kTensor + kTable, kTensor, 2 * kFlops), {e1});
  OpVertex e3 = add_op(before, stream_op("e3", "elementwise", kTensor, kTensor / 2, 3 * kFlops), {e2});
  add_op(before, stream_op("sink", "norm", kTensor / 2, kTensor / 2, kFlops), {e3});
  OpGraph after = xla_fuse(before);
  REQUIRE(boost::num_vertices(after) == 3);
  std::vector<OpVertex> order = execution_order(after);
  const Op& fused = after[order[1]];
  CHECK(fused.name == "e1");
  CHECK(fused.op_class == "elementwise");
  CHECK(fused.fused.ops == std::vector<std::string>{"e2", "e3"});
  const auto& s = std::get<StreamOp>(fused.shape);
  CHECK(s.bytes_read == doctest::Approx(kTensor + kTable));  // external reads only
  CHECK(s.bytes_written == doctest::Approx(kTensor / 2));     // the final output
  CHECK(s.flops == doctest::Approx(6 * kFlops));
  CHECK(fused.fused.vector_flops == 0);  // in the shape, not counted twice
  CHECK(after[order[2]].name == "sink");
  CHECK(boost::edge(order[0], order[1], after).second);
  CHECK(boost::edge(order[1], order[2], after).second);
  CHECK(total(after, op_flops) == doctest::Approx(total(before, op_flops)));
  CHECK(total(after, op_min_bytes) < total(before, op_min_bytes));
}

TEST_CASE("xla loop fusion: an op with two consumers is not fused across") {
  // e1 → e2 → e3, and e2 also feeds `other`: e1+e2 fuse (e2 is e1's only consumer), but e3 must
  // read e2's materialised output, so it stays separate.
  OpGraph before;
  OpVertex src = add_op(before, attention_op());
  OpVertex e1 = add_op(before, stream_op("e1", "elementwise", kTensor, kTensor, kFlops), {src});
  OpVertex e2 = add_op(before, stream_op("e2", "elementwise", kTensor, kTensor, kFlops), {e1});
  add_op(before, stream_op("e3", "elementwise", kTensor, kTensor, kFlops), {e2});
  add_op(before, stream_op("other", "norm", kTensor, kTensor, kFlops), {e2});
  OpGraph after = xla_fuse(before);
  REQUIRE(boost::num_vertices(after) == 4);
  CHECK(op_named(after, "e1").fused.ops == std::vector<std::string>{"e2"});
  CHECK(op_named(after, "e3").fused.empty());
  CHECK(op_named(after, "other").fused.empty());
  CHECK(total(after, op_flops) == doctest::Approx(total(before, op_flops)));
}

TEST_CASE("xla loop fusion: a norm absorbs the elementwise op after it, a KV-cache write stays") {
  OpGraph before;
  OpVertex src = add_op(before, attention_op());
  OpVertex norm = add_op(before, stream_op("norm", "norm", kTensor + kTable, kTensor, kFlops), {src});
  OpVertex scale = add_op(before, stream_op("scale", "elementwise", kTensor, kTensor, kFlops), {norm});
  add_op(before, stream_op("L0.kv_append", "elementwise", kTensor, kTensor, 0), {scale});
  OpGraph after = xla_fuse(before);
  REQUIRE(boost::num_vertices(after) == 3);
  const Op& fused = op_named(after, "norm");
  CHECK(fused.op_class == "norm");
  CHECK(fused.fused.ops == std::vector<std::string>{"scale"});
  CHECK(std::get<StreamOp>(fused.shape).bytes_read == doctest::Approx(kTensor + kTable));
  CHECK(op_named(after, "L0.kv_append").fused.empty());
}

TEST_CASE("xla loop fusion: the fused op takes its last op's place, keeping the order topological") {
  // e1 → e2, where e2 also reads `late`, issued after e1: the fusion must follow `late`.
  OpGraph before;
  OpVertex src = add_op(before, attention_op());
  OpVertex e1 = add_op(before, stream_op("e1", "elementwise", kTensor, kTensor, kFlops), {src});
  OpVertex late = add_op(before, stream_op("late", "norm", kTensor, kTensor, kFlops), {src});
  add_op(before, stream_op("e2", "elementwise", 2 * kTensor, kTensor, kFlops), {e1, late});
  OpGraph after = xla_fuse(before);
  REQUIRE(boost::num_vertices(after) == 3);
  std::vector<std::string> names;
  for (OpVertex v : execution_order(after)) names.push_back(after[v].name);
  CHECK(names == std::vector<std::string>{"attention", "late", "e1"});
  for (auto [it, end] = boost::edges(after); it != end; ++it)
    CHECK(boost::source(*it, after) < boost::target(*it, after));
  // e1's main input stays first; the absorbed op's other input follows.
  auto [in, in_end] = boost::in_edges(execution_order(after).back(), after);
  CHECK(after[boost::source(*in, after)].name == "attention");
  CHECK(after[boost::source(*std::next(in), after)].name == "late");
}
