#include "workloads/traces/trace_common.h"

#include <filesystem>
#include <fmt/format.h>

#include "sim/error.h"
#include "sim/input_file.h"

namespace hwsim {

std::ifstream open_trace_file(const std::string& path, const std::string& what) {
  check_input_file(path, what);  // a regular file of bounded size (sim/input_file.h)
  std::ifstream in(path, std::ios::binary);
  if (!in) io_error(fmt::format("{}: cannot read {}", path, what));
  return in;
}

Parallelism TraceLayout::parallel() const {
  Parallelism p;
  p.tp = group > 1 ? group : 1;
  p.pp = p2p ? 2 : 1;
  p.dp = world / (p.tp * p.pp);
  return p;
}

void TraceLayout::place(CollectiveOp& c, std::int64_t ranks) const {
  if (c.kind == CollectiveKind::send_recv) {
    c.axis = ParallelAxis::pp;
    c.ranks = 2;
    return;
  }
  c.ranks = ranks;
  c.axis = ranks == world ? ParallelAxis::world : ParallelAxis::tp;
}

TraceLayout trace_layout(std::int64_t world, std::int64_t group, bool p2p, const std::string& where) {
  if (world < 2) workload_error(fmt::format("{}: a replay needs at least 2 ranks (ranks={})", where, world));
  if (world > 1000000) workload_error(fmt::format("{}: {} ranks is out of range (at most 1000000)", where, world));
  if (group > 1 && (group >= world || world % group != 0))
    workload_error(fmt::format("{}: collectives among {} ranks do not tile the {} ranks of the replay (a group size "
                               "must divide it)", where, group, world));
  std::int64_t tp = group > 1 ? group : 1;
  if (p2p && world % (2 * tp) != 0)
    workload_error(fmt::format("{}: point-to-point messages run between two pipeline stages of {} rank(s) each, so "
                               "the {} ranks of the replay must be a multiple of {}",
                               where, tp, world, 2 * tp));
  return TraceLayout{world, group > 1 ? group : 0, p2p};
}

}  // namespace hwsim
