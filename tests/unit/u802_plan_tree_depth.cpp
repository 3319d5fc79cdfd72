// Double binary tree (NCCL): one pipelined round whose latency counts 2·ceil(log2 n) steps (up the
// tree to reduce, down to broadcast); every tree edge carries half the buffer each way in each of
// the two trees. Tree 1: parent of i is (i-1)/2; tree 2 is its mirror (rank n-1-i).
#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
constexpr double S = 4.0 * 1024 * 1024;
}

TEST_CASE("cluster plan: tree depth steps are 2·ceil(log2 n)") {
  auto sys = make_system("dgx_h100");
  // n: 2 → 2·1, 4 → 2·2, 5 → 2·3, 8 → 2·3.
  for (auto pair : std::vector<std::pair<std::int64_t, std::int64_t>>{{2, 2}, {4, 4}, {5, 6}, {8, 6}}) {
    const std::int64_t n = pair.first, steps = pair.second;  // not a structured binding: CHECK_MESSAGE captures n
    RankGroups g = one_group(n);
    CollectivePlan plan =
        plan_collective(collective(CollectiveKind::all_reduce, S, n, "tree"), g, sys->spec, *sys->fabric);
    CHECK(plan.algorithm == "tree");
    CHECK(plan.rounds == 1);
    CHECK_MESSAGE(plan.steps_per_round == steps, "n = " << n);
  }
}

TEST_CASE("cluster plan: a tree on 8 ranks moves S/2 both ways over the 7 edges of each of two complementary trees") {
  auto sys = make_system("dgx_h100");
  RankGroups g = one_group(8);
  CollectivePlan plan =
      plan_collective(collective(CollectiveKind::all_reduce, S, 8, "tree"), g, sys->spec, *sys->fabric);
  auto round = rounds_of(plan).at(0);
  CHECK(round.size() == 28);  // 2 trees × 7 edges × 2 directions
  for (const auto& t : round) CHECK(t.bytes == doctest::Approx(S / 2));
  // Tree 1: 1,2 under 0; 3,4 under 1; 5,6 under 2; 7 under 3.
  CHECK(has_transfer(round, 1, 0, S / 2));
  CHECK(has_transfer(round, 0, 1, S / 2));
  CHECK(has_transfer(round, 7, 3, S / 2));
  // Tree 2, the mirror: 6,5 under 7; ...; 0 under 4.
  CHECK(has_transfer(round, 6, 7, S / 2));
  CHECK(has_transfer(round, 0, 4, S / 2));
  CHECK(has_transfer(round, 4, 0, S / 2));
  // Rank 0 sends S/2 to each of its tree neighbours: children 1 and 2 in tree 1, parent 4 in tree 2.
  double sent0 = 0;
  for (const auto& t : round) if (t.from == 0) sent0 += t.bytes;
  CHECK(sent0 == doctest::Approx(3 * S / 2));
}

TEST_CASE("cluster plan: tree is an all_reduce algorithm only") {
  auto sys = make_system("dgx_h100");
  RankGroups g = one_group(8);
  CHECK_THROWS_WITH(collective_algorithms(collective(CollectiveKind::all_gather, S, 8), g, sys->spec, "tree"),
                    doctest::Contains("algo=tree: cannot run all_gather"));
}
