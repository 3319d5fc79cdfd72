// On a fully connected mesh (MI300X's xGMI: one link per peer) auto keeps direct for all_reduce:
// RCCL runs rings over every link permutation there, so every peer link carries data at once, and a
// single ring would leave 6 of a GPU's 7 links idle. On a switch (DGX) auto never offers direct.
#include <algorithm>

#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
constexpr double S = 1024.0 * 1024 * 1024;
}

TEST_CASE("cluster plan: auto all_reduce on a fully connected mesh runs direct, at several times a ring's bus bandwidth") {
  auto sys = make_system("mi300x_x8");
  RankGroups g = one_group(8);
  auto algos = collective_algorithms(collective(CollectiveKind::all_reduce, S, 8), g, sys->spec, "auto");
  CHECK(std::find(algos.begin(), algos.end(), "direct") != algos.end());
  CollectivePlan chosen = plan_collective(collective(CollectiveKind::all_reduce, S, 8), g, sys->spec, *sys->fabric);
  CollectivePlan ring = plan_collective(collective(CollectiveKind::all_reduce, S, 8, "ring"), g, sys->spec, *sys->fabric);
  CHECK(chosen.algorithm == "direct");
  // A ring uses one of seven links per GPU; direct uses all seven (less the latency terms).
  CHECK(ring.estimate > 3 * chosen.estimate);
  auto dgx = make_system("dgx_h100", {}, "fabric2");
  auto on_switch = collective_algorithms(collective(CollectiveKind::all_reduce, S, 8), g, dgx->spec, "auto");
  CHECK(std::find(on_switch.begin(), on_switch.end(), "direct") == on_switch.end());
}
