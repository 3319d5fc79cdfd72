// Torus all_reduce on a whole torus: per dimension a bidirectional ring reduce-scatter (n-1
// rounds, half the data each way: (size/n)/2 per transfer), the data shrinking by n per dimension,
// then the all-gathers in reverse order. 16x16: 2·(15 + 15) = 60 rounds, S/32 on the first
// dimension (stride 16: rows) and (S/16)/32 = S/512 on the second. 4x4x8: 2·(3 + 3 + 7) = 26
// rounds of S/8, (S/4)/8 = S/32 and (S/16)/16 = S/256.
#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
constexpr double S = 256.0 * 1024 * 1024;
}

TEST_CASE("cluster plan: torus all_reduce on 16x16 is 60 rounds, each chip sending both ways along one dimension") {
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
    REQUIRE(round.size() == 512);  // 256 chips × 2 directions
    bool first_dim = r < 15 || r >= 45;  // reduce: dims 0 then 1; gather: dims 1 then 0
    CHECK_MESSAGE(round[0].bytes == doctest::Approx(first_dim ? S / 32 : S / 512), "round " << r);
  }
  // Dimension 0 (stride 16): chip 0 to 16 and, around the wraparound, to 240.
  CHECK(has_transfer(rounds[0], 0, 16, S / 32));
  CHECK(has_transfer(rounds[0], 0, 240, S / 32));
  CHECK(has_transfer(rounds[59], 240, 0, S / 32));
  // Dimension 1 (stride 1, inside a row): chip 17 to 18 and 16; chip 31 wraps to 16.
  CHECK(has_transfer(rounds[15], 17, 18, S / 512));
  CHECK(has_transfer(rounds[15], 17, 16, S / 512));
  CHECK(has_transfer(rounds[44], 31, 16, S / 512));
}

TEST_CASE("cluster plan: torus all_reduce on 4x4x8 is 2·(3+3+7) = 26 rounds") {
  auto sys = make_system("tpu_v5p_4x4x8");
  RankGroups g = one_group(128);
  CollectivePlan plan =
      plan_collective(collective(CollectiveKind::all_reduce, S, 128, "torus"), g, sys->spec, *sys->fabric);
  REQUIRE(plan.rounds == 26);
  auto rounds = rounds_of(plan);
  // Reduce-scatter: rounds 0-2 dim 0 (4), 3-5 dim 1 (4), 6-12 dim 2 (8); then the mirror.
  CHECK(rounds[0][0].bytes == doctest::Approx(S / 8));
  CHECK(rounds[3][0].bytes == doctest::Approx(S / 32));
  CHECK(rounds[6][0].bytes == doctest::Approx(S / 256));
  CHECK(rounds[19][0].bytes == doctest::Approx(S / 256));
  CHECK(rounds[25][0].bytes == doctest::Approx(S / 8));
  // Strides 32, 8, 1 (row-major 4x4x8): chip 0 to 32, 8 and 1.
  CHECK(has_transfer(rounds[0], 0, 32, S / 8));
  CHECK(has_transfer(rounds[3], 0, 8, S / 32));
  CHECK(has_transfer(rounds[6], 0, 1, S / 256));
  CHECK(has_transfer(rounds[6], 7, 0, S / 256));  // wraparound in the dimension of 8
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
