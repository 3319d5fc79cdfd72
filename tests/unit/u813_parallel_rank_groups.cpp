// Rank groups of a parallel layout (workloads/parallel_groups.h): rank = tp_i + tp·(ep_i + ep·(dp_i
// + dp·pp_i)). So tp groups are neighbouring ranks, ep groups stride tp, dp groups stride tp·ep,
// pp groups stride tp·ep·dp (the ranks of one stage); pipeline pairs join a rank of stage s with
// the same position in stage s+1.
#include <doctest/doctest.h>

#include "workloads/parallel_groups.h"

using namespace hwsim;

namespace {
Parallelism layout(std::int64_t tp, std::int64_t ep, std::int64_t dp, std::int64_t pp) {
  Parallelism p;
  p.tp = tp;
  p.ep = ep;
  p.dp = dp;
  p.pp = pp;
  return p;
}
using Groups = std::vector<std::vector<std::int64_t>>;
}  // namespace

TEST_CASE("cluster parallel groups: tp=2 dp=2 pp=2 on 8 ranks") {
  Parallelism p = layout(2, 1, 2, 2);
  REQUIRE(p.ranks() == 8);
  // Stage 0 holds ranks 0-3, stage 1 ranks 4-7.
  CHECK(stage_ranks(p, 0) == std::vector<std::int64_t>{0, 1, 2, 3});
  CHECK(stage_ranks(p, 1) == std::vector<std::int64_t>{4, 5, 6, 7});
  CHECK(axis_groups(p, ParallelAxis::tp, 0) == Groups{{0, 1}, {2, 3}});
  CHECK(axis_groups(p, ParallelAxis::tp, 1) == Groups{{4, 5}, {6, 7}});
  CHECK(axis_groups(p, ParallelAxis::dp, 0) == Groups{{0, 2}, {1, 3}});  // stride tp·ep = 2
  CHECK(axis_groups(p, ParallelAxis::dp, 1) == Groups{{4, 6}, {5, 7}});
  CHECK(axis_groups(p, ParallelAxis::pp, 0) == Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}});
  CHECK(axis_groups(p, ParallelAxis::world, 0) == Groups{{0, 1, 2, 3, 4, 5, 6, 7}});
  CHECK(pipeline_pairs(p, 0) == Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}});
}

TEST_CASE("cluster parallel groups: with ep the dp stride is tp·ep") {
  Parallelism p = layout(2, 2, 2, 1);  // 8 ranks, one stage
  CHECK(axis_groups(p, ParallelAxis::tp, 0) == Groups{{0, 1}, {2, 3}, {4, 5}, {6, 7}});
  CHECK(axis_groups(p, ParallelAxis::ep, 0) == Groups{{0, 2}, {1, 3}, {4, 6}, {5, 7}});  // stride tp = 2
  CHECK(axis_groups(p, ParallelAxis::dp, 0) == Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}});  // stride tp·ep = 4
}

TEST_CASE("cluster parallel groups: pipeline pairs of four stages of tp=2") {
  Parallelism p = layout(2, 1, 1, 4);
  CHECK(pipeline_pairs(p, 0) == Groups{{0, 2}, {1, 3}});
  CHECK(pipeline_pairs(p, 2) == Groups{{4, 6}, {5, 7}});
  CHECK(axis_groups(p, ParallelAxis::pp, 3) == Groups{{0, 2, 4, 6}, {1, 3, 5, 7}});  // the stage is ignored
}
