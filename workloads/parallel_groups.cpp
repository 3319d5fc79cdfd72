#include "workloads/parallel_groups.h"

#include <array>

namespace hwsim {

namespace {
// Coordinates (tp, ep, dp, pp) of a rank and back.
using Coord = std::array<std::int64_t, 4>;
Coord sizes(const Parallelism& p) { return {p.tp, p.ep, p.dp, p.pp}; }
std::int64_t rank_of(const Coord& c, const Coord& n) { return c[0] + n[0] * (c[1] + n[1] * (c[2] + n[2] * c[3])); }
int axis_index(ParallelAxis a) {
  switch (a) {
    case ParallelAxis::tp: return 0;
    case ParallelAxis::ep: return 1;
    case ParallelAxis::dp: return 2;
    case ParallelAxis::pp: return 3;
    case ParallelAxis::world: return -1;
  }
  return -1;
}
}  // namespace

std::vector<std::int64_t> stage_ranks(const Parallelism& p, std::int64_t stage) {
  std::vector<std::int64_t> out;
  std::int64_t per_stage = p.tp * p.ep * p.dp;
  for (std::int64_t i = 0; i < per_stage; ++i) out.push_back(stage * per_stage + i);
  return out;
}

RankLists axis_groups(const Parallelism& p, ParallelAxis axis, std::int64_t stage) {
  Coord n = sizes(p);
  int a = axis_index(axis);
  if (a < 0) {
    std::vector<std::int64_t> all;
    for (std::int64_t r = 0; r < p.ranks(); ++r) all.push_back(r);
    return {all};
  }
  RankLists groups;
  // Every coordinate with position 0 along the axis (and the stage fixed unless the axis is pp)
  // starts a group.
  for (std::int64_t r = 0; r < p.ranks(); ++r) {
    Coord c{r % n[0], (r / n[0]) % n[1], (r / (n[0] * n[1])) % n[2], r / (n[0] * n[1] * n[2])};
    if (c[std::size_t(a)] != 0 || (a != 3 && c[3] != stage)) continue;
    std::vector<std::int64_t> g;
    for (std::int64_t i = 0; i < n[std::size_t(a)]; ++i) {
      c[std::size_t(a)] = i;
      g.push_back(rank_of(c, n));
    }
    groups.push_back(std::move(g));
  }
  return groups;
}

RankLists pipeline_pairs(const Parallelism& p, std::int64_t stage, bool reverse) {
  RankLists pairs;
  std::int64_t per_stage = p.tp * p.ep * p.dp;
  for (std::int64_t i = 0; i < per_stage; ++i) {
    std::int64_t here = stage * per_stage + i, next = (stage + 1) * per_stage + i;
    pairs.push_back(reverse ? std::vector<std::int64_t>{next, here} : std::vector<std::int64_t>{here, next});
  }
  return pairs;
}

}  // namespace hwsim
