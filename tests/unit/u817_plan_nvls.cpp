// NVLS (NVLink SHARP): the NVSwitch chips reduce and multicast, so an all-reduce moves S(n+1)/n
// through each device's links each way (a ring: 2S(n-1)/n) at nvlsEfficiency of the bulk link
// rate. On dgx_h100 (370.8 GB/s of bulk NVLink per GPU, NCCL's 0.85) the busbw plateau is
// 2(n-1)/(n+1) × 315 GB/s: 378, 420, 450, 472, 490 GB/s on 4..8 GPUs — the published 8 × H200
// sweep measures 363, 414, 436, 460, 473 (data/public/nccl_tests_dgx_h100.jsonl, source I).
#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
constexpr double S = 8.0 * (1 << 30);
}

TEST_CASE("cluster plan: NVLS all_reduce's transfers load each device's links with S(n+1)/n each way") {
  auto sys = make_system("dgx_h100");
  CollectivePlan plan =
      plan_collective(collective(CollectiveKind::all_reduce, S, 8, "nvls"), one_group(8), sys->spec, *sys->fabric);
  CHECK(plan.algorithm == "nvls");
  CHECK(plan.protocol == Protocol::simple);
  CHECK(plan.rounds == 1);
  auto round = rounds_of(plan).front();
  REQUIRE(round.size() == 56);
  double out0 = 0, in0 = 0;
  for (const auto& t : round) {
    if (t.from == 0) out0 += t.bytes;
    if (t.to == 0) in0 += t.bytes;
    CHECK(t.engine_share == doctest::Approx(1.0 / 9));
  }
  CHECK(out0 == doctest::Approx(S * 9 / 8));
  CHECK(in0 == doctest::Approx(S * 9 / 8));
}

TEST_CASE("cluster plan: NVLS busbw grows with the GPUs as 2(n-1)/(n+1) of the switch rate; auto takes it on 8") {
  auto sys = make_system("dgx_h100", {}, "fabric4");
  double previous = 0;
  for (int n = 4; n <= 8; ++n) {
    CollectivePlan plan = plan_collective(collective(CollectiveKind::all_reduce, S, n, "nvls"), one_group(n),
                                          sys->spec, *sys->fabric);
    double busbw = S / (plan.estimate - plan.fixed) * 2 * (n - 1) / n;
    CHECK(busbw == doctest::Approx(2.0 * (n - 1) / (n + 1) * 370.8e9 * 0.85).epsilon(0.01));
    CHECK(busbw > previous);
    previous = busbw;
  }
  CollectivePlan best =
      plan_collective(collective(CollectiveKind::all_reduce, S, 8), one_group(8), sys->spec, *sys->fabric);
  CHECK(best.algorithm == "nvls");
}

TEST_CASE("cluster plan: NVLS only where the switches reduce, within a node, for all_reduce") {
  auto h200 = make_system("h200x2");  // NVLS not enabled there
  CHECK_THROWS_WITH(collective_algorithms(collective(CollectiveKind::all_reduce, S, 2), one_group(2), h200->spec, "nvls"),
                    doctest::Contains("algo=nvls: cannot run all_reduce"));
  auto dgx = make_system("dgx_h100", {}, "fabric2");
  CHECK_THROWS_WITH(collective_algorithms(collective(CollectiveKind::all_gather, S, 8), one_group(8), dgx->spec, "nvls"),
                    doctest::Contains("cannot run all_gather"));
  auto cluster = make_system("h100_cluster", {"system.nodes=2"}, "fabric3");
  auto algos = collective_algorithms(collective(CollectiveKind::all_reduce, S, 16), one_group(16), cluster->spec, "auto");
  CHECK(std::find(algos.begin(), algos.end(), "nvls") == algos.end());
  CHECK_THROWS_WITH(system_spec("rtx4090x2_pcie", {"collective.nvls.enabled=true"}),
                    doctest::Contains("collective.nvls.enabled: NVLS reduces in the scale-up switches"));
}
