#pragma once
// What the trace importers (nccl_log, chakra) share: opening the file a spec names, and the
// parallel layout a trace's communicators run in.
#include <cstdint>
#include <fstream>
#include <string>

#include "ops/collective.h"
#include "workloads/workload.h"

namespace hwsim {

// The most calls (one rank's, from an NCCL log) or nodes (Chakra) one trace may hold.
inline constexpr std::size_t kMaxTraceOps = 1000000;

// Opens `path` for reading; throws UserError(io) "PATH: cannot read WHAT" when it cannot.
std::ifstream open_trace_file(const std::string& path, const std::string& what);

// The layout of a replayed trace on `world` ranks (devices 0 … world-1):
// - a collective among all `world` ranks runs on axis world;
// - collectives among a smaller group (one size `group` > 1 at most, dividing world) run on axis
//   tp with tp = group: every group of `group` neighbouring ranks at once, as a real job's
//   tensor-parallel groups do;
// - point-to-point messages (send_recv) need two pipeline stages: pp = 2, a send from each rank of
//   stage 0 to its peer in stage 1, a receive (CollectiveOp::reverse) from the peer back;
// - the rest is dp. Throws UserError(workload) naming `where` when world cannot be split so.
struct TraceLayout {
  std::int64_t world = 0;    // ranks of the layout
  std::int64_t group = 0;    // 0: no smaller group
  bool p2p = false;
  Parallelism parallel() const;
  // The axis (and, through `c.ranks`, the group size) a collective among `ranks` runs on.
  void place(CollectiveOp& c, std::int64_t ranks) const;
};
TraceLayout trace_layout(std::int64_t world, std::int64_t group, bool p2p, const std::string& where);

}  // namespace hwsim
