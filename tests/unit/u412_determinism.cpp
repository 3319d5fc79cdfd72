// Same inputs, same outputs: two runs of a data-dependent kernel give identical values, cycles
// and stall counts (seeded contents, ordered event loop).
#include <doctest/doctest.h>

#include "viz/warp/kernel_report.h"
#include "u4_warp_support.h"

using namespace hwsim::warp;

TEST_CASE("warp: runs are deterministic") {
  auto a = test::run_file("branch_data", 16, 128, {{"work", "16"}});
  auto b = test::run_file("branch_data", 16, 128, {{"work", "16"}});
  auto da = kernel_document(*a), db = kernel_document(*b);
  da["result"].erase("host_seconds");
  db["result"].erase("host_seconds");
  CHECK(da == db);
  CHECK(test::values(*a, "out") == test::values(*b, "out"));
}
