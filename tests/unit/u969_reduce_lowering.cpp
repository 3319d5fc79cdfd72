// Reductions as PyTorch's generic reduce kernel shapes them (models/gpu/tile/reduce_lowering.h):
// the launch arithmetic of setReduceConfig, and the global combine a whole-tensor sum pays and a
// row-wise sum does not.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "models/gpu/tile/reduce_lowering.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("reduce shape: a whole fp32 tensor is split over CTAs of 512 threads, 16 values per thread") {
  // H100: 132 SMs of 2048 threads, so a target grid of 132 x 4 CTAs of 512.
  ReduceShape mib = reduce_shape(1, 262144, 2048, 132);  // 1 MiB: 512 values a thread → 32 CTAs of 16
  CHECK(mib.threads == 512);
  CHECK(mib.elements_per_load == 4);
  CHECK(mib.ctas_per_output == 32);
  CHECK(mib.ctas == 32);
  CHECK(mib.loads_per_thread == 4);
  CHECK(reduce_shape(1, 2097152, 2048, 132).ctas == 256);      // 8 MiB: still 16 values a thread
  CHECK(reduce_shape(1, 8388608, 2048, 132).ctas == 528);      // 32 MiB: the target grid binds
  ReduceShape gib = reduce_shape(1, 1073741824, 2048, 132);    // 4 GiB: at most 256 values a thread
  CHECK(gib.ctas == 8192);
  CHECK(gib.loads_per_thread == 64);
}

TEST_CASE("reduce shape: many short rows share CTAs (a warp row each), no split, no combine") {
  ReduceShape s = reduce_shape(4096, 64, 2048, 132);
  CHECK(s.elements_per_load == 1);  // rows of up to 128 elements are read element by element
  CHECK(s.threads == 512);          // 32 lanes across a row x 16 rows
  CHECK(s.rows_per_cta == 16);
  CHECK(s.ctas == 256);
  CHECK(s.ctas_per_output == 1);
  CHECK(reduce_shape(4096, 4096, 2048, 132).ctas_per_output == 1);
}

namespace {
double kernel_seconds(const std::string& workload, const std::string& extra) {
  CliRun r = run_hwsim("--chip h100 -w '" + workload + "' --json - " + extra);
  REQUIRE(r.exit_code == 0);
  auto doc = nlohmann::json::parse(r.out);
  return doc["result"]["steps"][0]["kernels"][0]["seconds"].get<double>();
}
}  // namespace

TEST_CASE("reduce: a whole-tensor sum pays the global combine on its critical path; a row-wise sum does not") {
  const std::string whole = "elementwise:op=read_sum,T=1,D=262144,dtype=fp32";
  double with = kernel_seconds(whole, ""), without = kernel_seconds(whole, "--set gpu.tile.reduce_combine=0s");
  CHECK(with - without == doctest::Approx(4.3e-6).epsilon(1e-6));
  const std::string rows = "elementwise:op=read_sum,T=4096,D=4096,dtype=fp32";
  CHECK(kernel_seconds(rows, "") == kernel_seconds(rows, "--set gpu.tile.reduce_combine=0s"));
}
