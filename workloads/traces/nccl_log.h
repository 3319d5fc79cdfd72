#pragma once
// NCCL debug logs as workloads (nccl_log:file=PATH[,ranks=N]): the collective launches NCCL logs
// with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL, one line per call (NCCL 2.18+, src/enqueue.cc):
//   HOST:PID:TID [DEV] NCCL INFO AllReduce: opCount 3 sendbuff 0x.. recvbuff 0x.. count 1024
//   datatype 7 op 0 root 0 comm 0x.. [nranks=2] stream 0x..
// (opCount in hex, %lx; count %zi or %zu). Hardware-free: the calls of one rank become
// CollectiveOps in one step, a chain in log order.
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "ops/collective.h"
#include "workloads/traces/trace_common.h"  // kMaxTraceOps
#include "workloads/workload.h"

namespace hwsim {

// One collective call as logged.
struct NcclCall {
  std::size_t line = 0;       // 1-based line in the log
  std::string op;             // NCCL's name: "AllReduce", "Send", ...
  std::string process;        // "HOST:PID" of the logging process
  int device = 0;             // [DEV]: the CUDA device of the rank that logged it
  std::uint64_t op_count = 0; // per communicator; the calls of one ncclGroup share it
  std::uint64_t count = 0;    // elements, per rank (AllGather: sent, ReduceScatter: received)
  int datatype = 0;           // ncclDataType_t
  int root = 0;               // root; Send/Recv: the peer
  std::string comm;           // communicator address
  std::int64_t nranks = 0;    // ranks of the communicator
};

// The calls one rank logged: the process of the first collective line, its lowest [DEV]; calls of a
// (comm, opCount) group that had already closed (a later opCount of that comm was seen) are
// repeated lines and dropped.
struct NcclLog {
  std::string source;              // the file name, for messages
  std::string rank;                // "HOST:PID [DEV]" of the rank kept
  std::vector<NcclCall> calls;     // that rank's calls in log order
  std::size_t collective_lines = 0;  // every collective line of the file, all ranks
  std::size_t duplicates = 0;        // the kept rank's repeated lines dropped
};

// Parses a log; `source` names it in messages ("FILE:LINE: ..."). Throws UserError(workload) for a
// collective line that does not parse, a log without collective lines or with too many.
NcclLog parse_nccl_log(std::istream& in, const std::string& source);

// The element size and the DType (the nearest one, a label only where hwsim has none of that size)
// of an ncclDataType_t; throws UserError(workload) naming `where` for an unknown one.
struct NcclType {
  const char* name;  // "float32"
  double size;       // bytes per element
  DType dtype;
};
NcclType nccl_type(int datatype, const std::string& where);

// One call as a collective in nccl-tests terms (ops/collective.h): all_reduce, broadcast and
// reduce (run as a broadcast: the same bytes the other way) count·size; all_gather, reduce_scatter
// and all_to_all count·size·nranks; send/recv count·size (a Recv flows from the peer: reverse).
// ranks = the call's nranks (2 for send/recv); the axis is set by the workload builder.
CollectiveOp nccl_collective(const NcclCall& call, const std::string& source);

// The workload: one step, one CollectiveOp per call (calls on a single rank or of 0 bytes move
// nothing and are left out), each depending on the previous one. `world` (0: the largest nranks)
// is the number of ranks of the layout.
Workload nccl_log_workload(const NcclLog& log, std::int64_t world);

}  // namespace hwsim
