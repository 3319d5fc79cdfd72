#pragma once
// A collective lowered into rounds of point-to-point transfers, the way NCCL runs it: an
// algorithm (ring, tree, direct, hierarchical, torus, p2p) and a protocol (LL, LL128, Simple)
// trading latency for bandwidth. Pure and deterministic: no SystemC (collective_engine runs it).
//
// NVLS (NVLink SHARP) reduces in the NVSwitch chips and multicasts from them: an all-reduce moves
// S(n+1)/n bytes through each device's links each way, as a direct exchange of S(n+1)/(n(n-1))
// between every pair loads them, while each device's kernels move only its own 2S/n.
//
// Rounds run one after another: a round's transfers start together after its latency and the
// round ends when the last one arrives. Pipelined algorithms (tree, broadcast) are one round whose
// latency counts every pipeline stage (`steps`), their links all busy at once — the steady state
// of a pipeline of small chunks.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/cluster/system_spec.h"
#include "ops/collective.h"

namespace hwsim {

class Fabric;

enum class Protocol { ll = 0, ll128 = 1, simple = 2 };
std::string_view protocol_name(Protocol p);

struct Transfer {
  std::int64_t from = 0, to = 0;  // devices
  double bytes = 0;
  // Of the bytes, the share the two devices' collective kernels move (CollectiveTuning::
  // engine_bandwidth): 1 for a copy between devices; less where the switch does the work (NVLS).
  double engine_share = 1;
};

// Ranks of each group, in ring order: devices. All groups run the collective at once.
using RankGroups = std::vector<std::vector<std::int64_t>>;

struct CollectivePlan {
  std::string algorithm;
  Protocol protocol = Protocol::simple;
  std::int64_t rounds = 0;
  std::int64_t steps_per_round = 1;  // pipeline stages a round's latency counts
  double fixed = 0;                  // seconds before data moves: launch and base latency
  double overhead = 1;               // link bytes per byte moved (the protocol's flags, NVLS's efficiency)
  // The transfers of round r (0-based) of every group, appended to `out`.
  std::function<void(std::int64_t r, std::vector<Transfer>& out)> transfers;
  double estimate = 0;  // seconds, the analytical cost auto selection compared (latency + bytes / bandwidth)
};

// The algorithms that can run `op` on these groups (`requested`: one name, or "auto": all that
// apply). Throws UserError(workload) for an algorithm that cannot run it (tree for all_gather,
// torus off a torus, hierarchical within one node), naming the ones that can.
std::vector<std::string> collective_algorithms(const CollectiveOp& op, const RankGroups& groups,
                                               const SystemSpec& system, const std::string& requested);

// The plan for `op`: with algo=auto the algorithm and protocol of least estimated time (NCCL's
// tuner does the same with its own cost table); else the requested algorithm with its best protocol.
CollectivePlan plan_collective(const CollectiveOp& op, const RankGroups& groups, const SystemSpec& system,
                               Fabric& fabric);

}  // namespace hwsim
