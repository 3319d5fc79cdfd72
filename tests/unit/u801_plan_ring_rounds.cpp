// Ring: each round every rank sends one chunk of S/n to its successor (rank i → i+1 mod n).
// all_reduce is a reduce-scatter then an all-gather: 2(n-1) rounds; all_gather and reduce_scatter
// n-1 rounds. On dgx_h100 (8 ranks, S = 8 MiB): 14 rounds (7 for the halves) of 8 transfers of 1 MiB.
// A ring broadcast is one pipelined round of n-1 steps, S from each rank to the next but the last.
#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
constexpr double S = 8.0 * 1024 * 1024;

void check_ring(const CollectivePlan& plan, std::int64_t n, std::int64_t rounds, double chunk) {
  CHECK(plan.algorithm == "ring");
  CHECK(plan.steps_per_round == 1);
  REQUIRE(plan.rounds == rounds);
  for (const auto& round : rounds_of(plan)) {
    REQUIRE(round.size() == std::size_t(n));
    for (std::int64_t i = 0; i < n; ++i) CHECK(has_transfer(round, i, (i + 1) % n, chunk));
  }
}
}  // namespace

TEST_CASE("cluster plan: a ring all_reduce on 8 ranks is 2(n-1) = 14 rounds of S/8 to the next rank") {
  auto sys = make_system("dgx_h100");
  RankGroups g = one_group(8);
  auto op = collective(CollectiveKind::all_reduce, S, 8, "ring", "Simple");
  CollectivePlan plan = plan_collective(op, g, sys->spec, *sys->fabric);
  CHECK(plan.protocol == Protocol::simple);
  check_ring(plan, 8, 14, S / 8);
}

TEST_CASE("cluster plan: ring all_gather and reduce_scatter on 8 ranks are n-1 = 7 rounds of S/8") {
  auto sys = make_system("dgx_h100");
  RankGroups g = one_group(8);
  check_ring(plan_collective(collective(CollectiveKind::all_gather, S, 8, "ring"), g, sys->spec, *sys->fabric), 8, 7,
             S / 8);
  check_ring(plan_collective(collective(CollectiveKind::reduce_scatter, S, 8, "ring"), g, sys->spec, *sys->fabric), 8,
             7, S / 8);
}

TEST_CASE("cluster plan: a ring all_reduce on 2 ranks is 2 rounds of S/2 each way") {
  auto sys = make_system("h200x2");
  RankGroups g = one_group(2);
  check_ring(plan_collective(collective(CollectiveKind::all_reduce, S, 2, "ring"), g, sys->spec, *sys->fabric), 2, 2,
             S / 2);
}

TEST_CASE("cluster plan: a ring broadcast is one pipelined round of n-1 steps") {
  auto sys = make_system("dgx_h100");
  RankGroups g = one_group(8);
  CollectivePlan plan =
      plan_collective(collective(CollectiveKind::broadcast, S, 8, "ring"), g, sys->spec, *sys->fabric);
  CHECK(plan.rounds == 1);
  CHECK(plan.steps_per_round == 7);
  auto rounds = rounds_of(plan);
  REQUIRE(rounds[0].size() == 7);  // 0→1, 1→2, ..., 6→7: the whole buffer each
  for (std::int64_t i = 0; i < 7; ++i) CHECK(has_transfer(rounds[0], i, i + 1, S));
}

TEST_CASE("cluster plan: two groups of a ring run their rounds together, each in its own ring") {
  auto sys = make_system("dgx_h100");
  RankGroups g = {{0, 2, 4, 6}, {1, 3, 5, 7}};  // e.g. dp groups of stride 2
  CollectivePlan plan =
      plan_collective(collective(CollectiveKind::all_gather, S, 4, "ring"), g, sys->spec, *sys->fabric);
  REQUIRE(plan.rounds == 3);  // n - 1 with n = 4
  auto rounds = rounds_of(plan);
  REQUIRE(rounds[0].size() == 8);
  CHECK(has_transfer(rounds[0], 6, 0, S / 4));  // the ring closes inside its group
  CHECK(has_transfer(rounds[0], 7, 1, S / 4));
  CHECK(has_transfer(rounds[0], 0, 2, S / 4));
}
