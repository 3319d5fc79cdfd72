// Hierarchical all_reduce over N nodes of L ranks, pipelined: a ring reduce-scatter inside each
// node (L-1 steps of S/L), a ring all-reduce across nodes between ranks of the same local index,
// i.e. over one rail (2(N-1) steps of (S/L)/N), and a ring all-gather inside each node (L-1 steps
// of S/L) stream at once: one round whose node ring edges carry 2(L-1)·S/L, whose rail ring edges
// carry 2(N-1)·S/(L·N), and whose latency counts 2(L-1) + 2(N-1) steps. h100_cluster with 4 nodes
// of 8: 20 steps.
#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
constexpr double S = 64.0 * 1024 * 1024;
}

TEST_CASE("cluster plan: hierarchical all_reduce on 4 nodes of 8 is one pipelined round of 2(L-1)+2(N-1) = 20 steps") {
  auto sys = make_system("h100_cluster", {"system.nodes=4"});
  REQUIRE(sys->spec.devices() == 32);
  RankGroups g = one_group(32);
  CollectivePlan plan =
      plan_collective(collective(CollectiveKind::all_reduce, S, 32, "hierarchical", "Simple"), g, sys->spec, *sys->fabric);
  CHECK(plan.algorithm == "hierarchical");
  REQUIRE(plan.rounds == 1);
  CHECK(plan.steps_per_round == 20);
  auto rounds = rounds_of(plan);
  const auto& round = rounds.front();
  REQUIRE(round.size() == 64);  // every rank sends once inside its node and once along its rail
  int inside = 0, across = 0;
  for (const auto& t : round) {
    if (t.from / 8 == t.to / 8) {
      ++inside;
      CHECK(t.bytes == doctest::Approx(2 * 7 * S / 8));
      CHECK(t.to == t.from / 8 * 8 + (t.from % 8 + 1) % 8);  // the next rank of the node's ring
    } else {
      ++across;
      CHECK(t.bytes == doctest::Approx(2 * 3 * S / 32));
      CHECK(t.from % 8 == t.to % 8);    // same rail
      CHECK(t.to == (t.from + 8) % 32);  // the next node
    }
  }
  CHECK(inside == 32);
  CHECK(across == 32);
  CHECK(has_transfer(round, 24, 0, 2 * 3 * S / 32));  // node 3 → node 0 closes the rail ring
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
