// algo=auto, proto=auto: the plan of least estimated time. On h200x2 (2 ranks, ring or tree; both
// tie at 2 ranks, the ring listed first wins), with the numbers of configs/systems/h200x2.toml and
// its two fitted ones pinned (launch_overhead 3 µs, channel_bandwidth 29 GB/s):
//   fixed = launch 3 µs + base (LL 6.6, LL128 14, Simple 8.4 µs); per step (LL 0.6, LL128 1.9,
//   Simple 3.4 µs); 2 ring rounds. Each round every device sends S/2 and receives S/2, and its
//   collective engine (24 channels × 29 GB/s = 696 GB/s, sends and receives both counted) is
//   slower than its links (18 × 26.5625 GB/s × 0.7755 = 370.8 GB/s for S/2 one way): a round
//   takes S / (696 GB/s × protocol efficiency) (LL 0.5, LL128 0.9375, Simple 1).
// 1 KiB: LL = 9.6 + 1.2 µs + 2·1024/348e9 s ≈ 10.806 µs, LL128 ≈ 20.8 µs, Simple ≈ 18.2 µs → LL.
// 1 GiB: Simple = 18.2 µs + 2^30 B / 348 GB/s = 3.0854 ms; LL128 = 20.8 µs + 2^30/326.25e9 =
//        3.3119 ms; LL = 10.8 µs + 2^30/174e9 = 6.18 ms → Simple.
#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
const std::vector<std::string> kPinned = {"collective.launch_overhead=3us", "collective.channels=24",
                                          "collective.channel_bandwidth=29GB/s"};
}

TEST_CASE("cluster plan: auto picks LL for 1 KiB and Simple for 1 GiB on h200x2, at the hand-computed estimate") {
  auto sys = make_system("h200x2", kPinned);
  RankGroups g = one_group(2);
  CollectivePlan small = plan_collective(collective(CollectiveKind::all_reduce, 1024, 2), g, sys->spec, *sys->fabric);
  CHECK(small.algorithm == "ring");
  CHECK(small.protocol == Protocol::ll);
  CHECK(small.estimate == doctest::Approx(3e-6 + 6.6e-6 + 2 * 0.6e-6 + 2 * 1024 / 348e9).epsilon(1e-9));

  const double gib = 1024.0 * 1024 * 1024;
  CollectivePlan large = plan_collective(collective(CollectiveKind::all_reduce, gib, 2), g, sys->spec, *sys->fabric);
  CHECK(large.algorithm == "ring");
  CHECK(large.protocol == Protocol::simple);
  CHECK(large.estimate == doctest::Approx(3e-6 + 8.4e-6 + 2 * 3.4e-6 + gib / 348e9).epsilon(1e-9));

  // Asking for a protocol by name: LL128 for 1 GiB costs its own estimate.
  CollectivePlan ll128 =
      plan_collective(collective(CollectiveKind::all_reduce, gib, 2, "auto", "LL128"), g, sys->spec, *sys->fabric);
  CHECK(ll128.protocol == Protocol::ll128);
  CHECK(ll128.estimate == doctest::Approx(3e-6 + 14e-6 + 2 * 1.9e-6 + gib / (348e9 * 0.9375)).epsilon(1e-9));
}

TEST_CASE("cluster plan: an unknown protocol is refused with the valid ones") {
  auto sys = make_system("h200x2", kPinned);
  RankGroups g = one_group(2);
  CHECK_THROWS_WITH(plan_collective(collective(CollectiveKind::all_reduce, 1024, 2, "auto", "LL64"), g, sys->spec,
                                    *sys->fabric),
                    doctest::Contains("proto=LL64: not a protocol of this system's collectives (valid: auto, LL, LL128, Simple"));
}
