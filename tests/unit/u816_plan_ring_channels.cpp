// A ring across nodes runs on one channel per NIC of a node (NCCL spreads its channels over the
// rails): channel c enters each node at its rank c and leaves from rank c - 1, so every NIC sends
// one channel's crossing and receives another's, each channel carrying 1/C of the data. Within a
// node one ring stays one channel.
#include <map>

#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
constexpr double S = 64.0 * 1024 * 1024;
}

TEST_CASE("cluster plan: a ring over 2 nodes of 8 runs 8 channels, each NIC sending and receiving one crossing") {
  auto sys = make_system("h100_cluster", {"system.nodes=2"});
  RankGroups g = one_group(16);
  CollectivePlan plan =
      plan_collective(collective(CollectiveKind::all_reduce, S, 16, "ring", "Simple"), g, sys->spec, *sys->fabric);
  REQUIRE(plan.rounds == 30);
  auto round = rounds_of(plan).front();
  REQUIRE(round.size() == 8 * 16);
  std::map<std::int64_t, int> sends, receives;  // crossings per device
  for (const auto& t : round) {
    CHECK(t.bytes == doctest::Approx(S / 16 / 8));
    if (t.from / 8 != t.to / 8) ++sends[t.from], ++receives[t.to];
  }
  REQUIRE(sends.size() == 16);
  for (const auto& [device, n] : sends) CHECK(n == 1);
  for (const auto& [device, n] : receives) CHECK(n == 1);
  // channel 3: node 0's ranks 3..7, 0..2, then node 1's 11..15, 8..10
  CHECK(has_transfer(round, 2, 11, S / 128));
  CHECK(has_transfer(round, 10, 3, S / 128));
}

TEST_CASE("cluster plan: a ring inside one node is one channel; a broadcast chain starts at its root in every channel") {
  auto node = make_system("dgx_h100");
  CollectivePlan one = plan_collective(collective(CollectiveKind::all_gather, S, 8, "ring", "Simple"), one_group(8),
                                       node->spec, *node->fabric);
  CHECK(rounds_of(one).front().size() == 8);
  auto sys = make_system("h100_cluster", {"system.nodes=2"}, "fabric2");
  CollectivePlan b = plan_collective(collective(CollectiveKind::broadcast, S, 16, "ring", "Simple"), one_group(16),
                                     sys->spec, *sys->fabric);
  auto round = rounds_of(b).front();
  REQUIRE(round.size() == 8 * 15);
  int from_root = 0, into_root = 0;
  for (const auto& t : round) from_root += t.from == 0, into_root += t.to == 0;
  CHECK(from_root == 8);  // every channel's chain begins at rank 0
  CHECK(into_root == 0);
}

TEST_CASE("cluster plan: 2 nodes of 8 reach the rails' bandwidth, not one NIC's") {
  auto sys = make_system("h100_cluster", {"system.nodes=2"}, "fabric3");
  for (CollectiveKind k : {CollectiveKind::all_gather, CollectiveKind::reduce_scatter, CollectiveKind::all_reduce}) {
    CollectivePlan plan = plan_collective(collective(k, 8.0 * (1 << 30), 16, "ring", "Simple"), one_group(16),
                                          sys->spec, *sys->fabric);
    double n = 16, factor = k == CollectiveKind::all_reduce ? 2 * (n - 1) / n : (n - 1) / n;
    double busbw = 8.0 * (1 << 30) / plan.estimate * factor;
    // 8 NICs × 50 GB/s × 0.97 = 388 GB/s; one NIC would give 48.5
    CHECK(busbw > 360e9);
    CHECK(busbw < 388e9 * 1.001);
  }
}

TEST_CASE("cluster plan: send_recv among 8 ranks is a ring of pairs (sendrecv_perf); between 2, one send") {
  auto sys = make_system("dgx_h100", {}, "fabric5");
  CollectiveOp c = collective(CollectiveKind::send_recv, S, 8);
  RankGroups g = one_group(8);
  CollectivePlan ring = plan_collective(c, g, sys->spec, *sys->fabric);
  CHECK(ring.algorithm == "p2p");
  auto round = rounds_of(ring).front();
  REQUIRE(round.size() == 8);
  for (const auto& t : round) {
    CHECK(t.to == (t.from + 1) % 8);
    CHECK(t.bytes == doctest::Approx(S));
  }
  RankGroups pair = one_group(2);
  CollectivePlan one = plan_collective(collective(CollectiveKind::send_recv, S, 2), pair, sys->spec, *sys->fabric);
  auto sends = rounds_of(one).front();
  REQUIRE(sends.size() == 1);
  CHECK(sends[0].from == 0);
  CHECK(sends[0].to == 1);
}

TEST_CASE("cluster plan: auto passes over an algorithm past the transfer bounds; asked by name, it is refused") {
  // 1,200 ranks: a ring's 8 channels move 9,600 transfers a round for 2,398 rounds (past 2·10^7)
  auto sys = make_system("h100_cluster", {"system.nodes=150"}, "fabric6");
  RankGroups g = one_group(1200);
  CollectivePlan plan = plan_collective(collective(CollectiveKind::all_reduce, S, 1200), g, sys->spec, *sys->fabric);
  CHECK(plan.algorithm != "ring");
  CHECK_THROWS_WITH(plan_collective(collective(CollectiveKind::all_reduce, S, 1200, "ring"), g, sys->spec, *sys->fabric),
                    doctest::Contains("all_reduce of 1200 ranks with algo=ring: too many transfers to simulate"));
}
