// Direct: every rank to every other at once, S/n each (all_to_all: one round; all_reduce: a
// reduce-scatter exchange then an all-gather exchange, 2 rounds). send_recv: one transfer of S from
// the first rank of each pair to the second. With algo=auto the library never picks direct for
// all_reduce, all_gather or reduce_scatter on a switch (NCCL has none), but it stays available by
// name (on a fully connected mesh auto may pick it: u815).
#include <algorithm>

#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
constexpr double S = 1024.0 * 1024;
}

TEST_CASE("cluster plan: all_to_all on 8 ranks is one round of 8·7 transfers of S/8") {
  auto sys = make_system("dgx_h100");
  RankGroups g = one_group(8);
  CollectivePlan plan = plan_collective(collective(CollectiveKind::all_to_all, S, 8), g, sys->spec, *sys->fabric);
  CHECK(plan.algorithm == "direct");
  REQUIRE(plan.rounds == 1);
  auto round = rounds_of(plan)[0];
  CHECK(round.size() == 56);
  for (std::int64_t i = 0; i < 8; ++i)
    for (std::int64_t j = 0; j < 8; ++j)
      if (i != j) CHECK(has_transfer(round, i, j, S / 8));
}

TEST_CASE("cluster plan: direct all_reduce by name is 2 rounds of n(n-1) transfers, never chosen by auto") {
  auto sys = make_system("dgx_h100");
  RankGroups g = one_group(4);
  auto algos = collective_algorithms(collective(CollectiveKind::all_reduce, S, 4), g, sys->spec, "auto");
  CHECK(std::find(algos.begin(), algos.end(), "direct") == algos.end());
  CHECK(std::find(algos.begin(), algos.end(), "ring") != algos.end());
  CHECK(std::find(algos.begin(), algos.end(), "tree") != algos.end());
  CollectivePlan plan =
      plan_collective(collective(CollectiveKind::all_reduce, S, 4, "direct"), g, sys->spec, *sys->fabric);
  CHECK(plan.algorithm == "direct");
  REQUIRE(plan.rounds == 2);
  for (const auto& round : rounds_of(plan)) {
    CHECK(round.size() == 12);
    CHECK(has_transfer(round, 3, 0, S / 4));
  }
}

TEST_CASE("cluster plan: send_recv pairs are one transfer of S each") {
  auto sys = make_system("dgx_h100");
  RankGroups pairs = {{0, 4}, {1, 5}};
  CollectivePlan plan = plan_collective(collective(CollectiveKind::send_recv, S, 2), pairs, sys->spec, *sys->fabric);
  CHECK(plan.algorithm == "p2p");
  REQUIRE(plan.rounds == 1);
  auto round = rounds_of(plan)[0];
  REQUIRE(round.size() == 2);
  CHECK(has_transfer(round, 0, 4, S));
  CHECK(has_transfer(round, 1, 5, S));
}
