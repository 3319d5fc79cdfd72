#pragma once
// Communication between devices, as the frontend knows it: which collective, how many bytes,
// among which ranks of the parallel layout. Hardware-free: the system (models/cluster/) lowers it
// into point-to-point transfers over its links.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ops/dtype.h"

namespace hwsim {

enum class CollectiveKind { all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, send_recv };

// The axes of a parallel layout (workloads: tp, pp, ep, dp). A collective on an axis runs in every
// group of ranks that differ only along that axis, all groups at once (as a real job does). `world`:
// every rank of the layout in one group.
enum class ParallelAxis { tp, pp, ep, dp, world };

// `bytes` is the nccl-tests "size" of the operation:
// - all_reduce, broadcast: the buffer each rank holds;
// - all_gather: the gathered output (each rank contributes bytes / n);
// - reduce_scatter: the input each rank reduces (each rank keeps bytes / n);
// - all_to_all: the buffer each rank sends (bytes / n to every rank, itself included);
// - send_recv: the message, from each rank of one pipeline stage to the next stage's rank (axis pp).
struct CollectiveOp {
  CollectiveKind kind = CollectiveKind::all_reduce;
  double bytes = 0;
  ParallelAxis axis = ParallelAxis::world;
  std::int64_t ranks = 1;       // ranks per group (the layout's size along `axis`)
  DType dtype = DType::bf16;    // element type (reductions add in it)
  std::string algo = "auto";    // ring | tree | direct | hierarchical | torus | auto
  std::string proto = "auto";   // LL | LL128 | Simple | auto (the library's choice by estimated time)
  // true: the next ops do not wait for it (gradient buckets during the backward pass); the step
  // ends only when every collective it started has finished.
  bool async = false;
  // send_recv only: the data flows from stage + 1 back to the op's stage (a gradient in the
  // backward pass) instead of from the op's stage to stage + 1.
  bool reverse = false;
};

std::string_view collective_name(CollectiveKind k);            // "all_reduce"
std::optional<CollectiveKind> parse_collective(std::string_view name);
std::vector<std::string> collective_names();
std::string_view axis_name(ParallelAxis a);                    // "tp"

// nccl-tests' bus-bandwidth factor: busbw = algbw × factor (all_reduce 2(n-1)/n; all_gather,
// reduce_scatter, all_to_all (n-1)/n; broadcast, send_recv 1).
double bus_bandwidth_factor(CollectiveKind k, std::int64_t ranks);

// Bytes each rank sends over its links in the bandwidth-optimal algorithm (the lower bound a
// ring reaches): all_reduce 2(n-1)/n·S, all_gather/reduce_scatter/all_to_all (n-1)/n·S,
// broadcast and send_recv S.
double bytes_sent_per_rank(const CollectiveOp& c);

}  // namespace hwsim
