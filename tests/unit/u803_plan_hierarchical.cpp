// Hierarchical all_reduce over N nodes of L ranks: a ring reduce-scatter inside each node (L-1
// rounds of S/L), a ring all-reduce across nodes between ranks of the same local index, i.e. over
// one rail (2(N-1) rounds of (S/L)/N), a ring all-gather inside each node (L-1 rounds of S/L):
// 2(L-1) + 2(N-1) rounds. h100_cluster with 4 nodes of 8: 14 + 6 = 20 rounds, S/8 and S/32.
#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
constexpr double S = 64.0 * 1024 * 1024;
}

TEST_CASE("cluster plan: hierarchical all_reduce on 4 nodes of 8 is 2(L-1)+2(N-1) = 20 rounds of S/L and S/(L·N)") {
  auto sys = make_system("h100_cluster", {"system.nodes=4"});
  REQUIRE(sys->spec.devices() == 32);
  RankGroups g = one_group(32);
  CollectivePlan plan =
      plan_collective(collective(CollectiveKind::all_reduce, S, 32, "hierarchical", "Simple"), g, sys->spec, *sys->fabric);
  CHECK(plan.algorithm == "hierarchical");
  REQUIRE(plan.rounds == 20);
  auto rounds = rounds_of(plan);
  for (std::int64_t r = 0; r < 20; ++r) {
    const auto& round = rounds[std::size_t(r)];
    REQUIRE(round.size() == 32);  // every rank sends once a round
    bool inside = r < 7 || r >= 13;
    for (const auto& t : round) {
      if (inside) {
        CHECK(t.bytes == doctest::Approx(S / 8));
        CHECK(t.from / 8 == t.to / 8);                   // same node
        CHECK(t.to == t.from / 8 * 8 + (t.from % 8 + 1) % 8);  // the next rank of the node's ring
      } else {
        CHECK(t.bytes == doctest::Approx(S / 32));
        CHECK(t.from % 8 == t.to % 8);                   // same rail
        CHECK(t.to == (t.from + 8) % 32);                // the next node
      }
    }
  }
  CHECK(has_transfer(rounds[7], 24, 0, S / 32));  // node 3 → node 0 closes the rail ring
}

TEST_CASE("cluster plan: hierarchical needs ranks on several nodes") {
  auto sys = make_system("dgx_h100");
  RankGroups g = one_group(8);
  CHECK_THROWS_WITH(collective_algorithms(collective(CollectiveKind::all_reduce, S, 8), g, sys->spec, "hierarchical"),
                    doctest::Contains("algo=hierarchical: cannot run all_reduce on these ranks"));
  // auto on one node does not offer it; on two nodes it does.
  auto one_node = collective_algorithms(collective(CollectiveKind::all_reduce, S, 8), g, sys->spec, "auto");
  CHECK(std::find(one_node.begin(), one_node.end(), "hierarchical") == one_node.end());
  auto cluster = make_system("h100_cluster", {"system.nodes=2"}, "fabric2");
  RankGroups two = one_group(16);
  auto two_nodes = collective_algorithms(collective(CollectiveKind::all_reduce, S, 16), two, cluster->spec, "auto");
  CHECK(std::find(two_nodes.begin(), two_nodes.end(), "hierarchical") != two_nodes.end());
}
