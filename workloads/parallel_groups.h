#pragma once
// The rank groups of a parallel layout (workload.h: rank = tp_i + tp·(ep_i + ep·(dp_i + dp·pp_i))).
// Hardware-free: the system runner maps rank r to device r.
#include <cstdint>
#include <vector>

#include "ops/collective.h"
#include "workloads/workload.h"

namespace hwsim {

using RankLists = std::vector<std::vector<std::int64_t>>;

// Every group along `axis` among the ranks of pipeline stage `stage` (axis pp: across stages, the
// stage ignored; world: one group of every rank), each in ascending rank order.
RankLists axis_groups(const Parallelism& p, ParallelAxis axis, std::int64_t stage);

// For a send_recv from `stage` to stage + 1: pairs {rank in stage, the same position in stage + 1};
// reverse: {rank in stage + 1, the same position in stage}.
RankLists pipeline_pairs(const Parallelism& p, std::int64_t stage, bool reverse = false);

// The ranks of a stage, ascending.
std::vector<std::int64_t> stage_ranks(const Parallelism& p, std::int64_t stage);

}  // namespace hwsim
