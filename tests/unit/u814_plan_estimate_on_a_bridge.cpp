// The estimate auto selection compares must cost each protocol as the fabric runs it: the fabric
// moves 1/efficiency link bytes per byte on every resource of a route, the host bridge included.
// rtx4090x2_pcie, all_reduce 1 GiB on 2 ranks, ring, LL128 (efficiency 0.9375): fixed 3 µs (launch,
// pinned: a fitted value) + 14 µs;
// per round 2.5 µs + the staged bridge carrying 2 transfers × 2 crossings × S/2 / 0.9375 at
// 83 GB/s; 2 rounds: 17 µs + 2 × 2.5 µs + 2 × 2S / (0.9375 × 83e9) = 55.218 ms.
#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("cluster plan: the LL128 estimate on a staged PCIe bridge includes LL128's efficiency") {
  auto sys = make_system("rtx4090x2_pcie", {"collective.launch_overhead=3us"});
  RankGroups g = one_group(2);
  const double S = 1073741824.0;
  CollectivePlan plan =
      plan_collective(collective(CollectiveKind::all_reduce, S, 2, "ring", "LL128"), g, sys->spec, *sys->fabric);
  CHECK(plan.protocol == Protocol::ll128);
  CHECK(plan.estimate == doctest::Approx(17e-6 + 2 * 2.5e-6 + 2 * 2 * S / (0.9375 * 83e9)).epsilon(1e-6));
}
