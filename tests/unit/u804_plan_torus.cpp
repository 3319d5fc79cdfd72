// Torus all_reduce on a whole torus: the data in one part per dimension, all parts at once; part p
// runs per dimension, starting at dimension p, a bidirectional ring reduce-scatter (n-1 rounds,
// half its data each way: (size/n)/2 per transfer), its data shrinking by n per dimension, then
// the all-gathers in reverse order. 16x16: two parts of S/2, 2·(15 + 15) = 60 rounds; in rounds
// 0-14 part 0 sends (S/2)/32 = S/64 along dimension 0 while part 1 sends S/64 along dimension 1,
// in rounds 15-29 each sends (S/32)/32 = S/1024 along the other dimension. 4x4x8: three parts of
// S/3, 26 rounds; part 0 starts with (S/3)/8 along dimension 0.
#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
constexpr double S = 256.0 * 1024 * 1024;
}

TEST_CASE("cluster plan: torus all_reduce on 16x16 is 60 rounds, both dimensions busy in each") {
  auto sys = make_system("tpu_v5e_16x16");
  RankGroups g = one_group(256);
  CollectivePlan plan =
      plan_collective(collective(CollectiveKind::all_reduce, S, 256, "torus"), g, sys->spec, *sys->fabric);
  CHECK(plan.algorithm == "torus");
  CHECK(plan.protocol == Protocol::simple);  // the only protocol of XLA collectives
  REQUIRE(plan.rounds == 60);
  auto rounds = rounds_of(plan);
  for (std::int64_t r = 0; r < 60; ++r) {
    const auto& round = rounds[std::size_t(r)];
    REQUIRE(round.size() == 1024);  // 2 parts × 256 chips × 2 directions
    bool large = r < 15 || r >= 45;  // each part's first dimension (reduce) and last (gather)
    CHECK_MESSAGE(round[0].bytes == doctest::Approx(large ? S / 64 : S / 1024), "round " << r);
  }
  // Part 0 on dimension 0 (stride 16): chip 0 to 16 and, around the wraparound, to 240; part 1 on
  // dimension 1 (stride 1): chip 17 to 18 and 16; chip 31 wraps to 16.
  CHECK(has_transfer(rounds[0], 0, 16, S / 64));
  CHECK(has_transfer(rounds[0], 0, 240, S / 64));
  CHECK(has_transfer(rounds[0], 17, 18, S / 64));
  CHECK(has_transfer(rounds[0], 31, 16, S / 64));
  CHECK(has_transfer(rounds[15], 17, 18, S / 1024));
  CHECK(has_transfer(rounds[15], 0, 16, S / 1024));
  CHECK(has_transfer(rounds[59], 240, 0, S / 64));
}

TEST_CASE("cluster plan: torus all_reduce on 4x4x8 is 2·(3+3+7) = 26 rounds") {
  auto sys = make_system("tpu_v5p_4x4x8");
  RankGroups g = one_group(128);
  CollectivePlan plan =
      plan_collective(collective(CollectiveKind::all_reduce, S, 128, "torus"), g, sys->spec, *sys->fabric);
  REQUIRE(plan.rounds == 26);
  auto rounds = rounds_of(plan);
  REQUIRE(rounds[0].size() == 3 * 128 * 2);
  // Part 0 starts on dimension 0 (4, stride 32) with (S/3)/4/2 = S/24; part 2 on dimension 2
  // (8, stride 1) with (S/3)/8/2 = S/48.
  CHECK(has_transfer(rounds[0], 0, 32, S / 24));
  CHECK(has_transfer(rounds[0], 0, 1, S / 48));
  CHECK(has_transfer(rounds[0], 7, 0, S / 48));  // wraparound in the dimension of 8
  CHECK(has_transfer(rounds[25], 32, 0, S / 24));
}

TEST_CASE("cluster plan: torus needs the whole torus, and a torus system") {
  auto sys = make_system("tpu_v5e_16x16");
  RankGroups part = one_group(16);
  CHECK_THROWS_WITH(collective_algorithms(collective(CollectiveKind::all_reduce, S, 16), part, sys->spec, "torus"),
                    doctest::Contains("algo=torus: cannot run all_reduce"));
  auto nv = make_system("h200x2", {}, "fabric2");
  RankGroups two = one_group(2);
  CHECK_THROWS_WITH(collective_algorithms(collective(CollectiveKind::all_reduce, S, 2), two, nv->spec, "torus"),
                    doctest::Contains("algorithms that can: ring, direct, tree"));
}
