// The elementwise workload's new ops: softmax as one kernel or as its five torch ops, GELU,
// a transposing copy with strided reads, and calls rotating over buffer sets.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"
#include "workloads/workload.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
std::vector<Op> ops_of(const std::string& spec) {
  Workload w = WorkloadCatalog::build(spec);
  std::vector<Op> out;
  const OpGraph& g = w.steps.front().graph;
  for (auto v : boost::make_iterator_range(boost::vertices(g))) out.push_back(g[v]);
  return out;
}
}  // namespace

TEST_CASE("elementwise: softmax fused is one row kernel, unfused five full passes") {
  auto fused = ops_of("elementwise:op=softmax,T=4096,D=4096");
  auto unfused = ops_of("elementwise:op=softmax,T=4096,D=4096,impl=unfused");
  REQUIRE(fused.size() == 1);
  CHECK(fused[0].op_class == "softmax");
  REQUIRE(unfused.size() == 5);
  const double tensor = 4096.0 * 4096 * 2;
  double moved = 0;
  for (const auto& op : unfused) {
    const auto& s = std::get<StreamOp>(op.shape);
    moved += s.bytes_read + s.bytes_written;
  }
  // max (read x), sub (read x, write), exp (read, write), sum (read), div (read, write): 8 passes
  // of the tensor, plus the per-row max and sum vectors (each written once, read once).
  CHECK(moved == doctest::Approx(8 * tensor + 4 * 4096.0 * 2));
  CHECK(unfused[0].name == "softmax.max");
  CHECK(unfused[4].name == "softmax.div");
}

TEST_CASE("elementwise: transpose reads one element per strided access; buffers rotate calls") {
  auto t = ops_of("elementwise:op=transpose,T=1024,D=1024,dtype=fp32");
  REQUIRE(t.size() == 1);
  CHECK(std::get<StreamOp>(t[0].shape).strided_read_bytes == 4);
  auto g = ops_of("elementwise:op=gelu,T=8,D=1024");
  CHECK(std::get<StreamOp>(g[0].shape).flops == doctest::Approx(8.0 * 8 * 1024));
  auto rotated = ops_of("elementwise:op=fill,T=1,D=1048576,repeat=3,buffers=3");
  REQUIRE(rotated.size() == 3);
  CHECK(rotated[0].output_tensor != rotated[1].output_tensor);
  CHECK(rotated[0].output_tensor != rotated[2].output_tensor);
  auto same = ops_of("elementwise:op=fill,T=1,D=1048576,repeat=3");
  CHECK(same[0].output_tensor == same[2].output_tensor);
  CHECK_THROWS_WITH(WorkloadCatalog::build("elementwise:op=gelu,D=8,impl=unfused"), doctest::Contains("only op=softmax"));
}
