// NCCL log lines become collectives in nccl-tests terms: count is per rank, so all_gather,
// reduce_scatter and all_to_all carry count·size·nranks, the others count·size; every
// ncclDataType_t has its element size.
#include <doctest/doctest.h>

#include <sstream>

#include "workloads/traces/nccl_log.h"

using namespace hwsim;

namespace {
std::string line(const std::string& op, int count, int datatype, int nranks, int root = 0) {
  return "node1:4242:4242 [0] NCCL INFO " + op + ": opCount 0 sendbuff 0x7f0000000400 recvbuff 0x7f0000000400 count " +
         std::to_string(count) + " datatype " + std::to_string(datatype) + " op 0 root " + std::to_string(root) +
         " comm 0x55d0c0 [nranks=" + std::to_string(nranks) + "] stream 0x55e0f0\n";
}
CollectiveOp one(const std::string& text) {
  std::istringstream in(text);
  NcclLog log = parse_nccl_log(in, "t.log");
  REQUIRE(log.calls.size() == 1);
  return nccl_collective(log.calls.front(), "t.log");
}
}  // namespace

TEST_CASE("nccl_log: per-rank counts become nccl-tests sizes for every op") {
  CollectiveOp ar = one(line("AllReduce", 1000, 7, 4));  // float32
  CHECK(ar.kind == CollectiveKind::all_reduce);
  CHECK(ar.bytes == 4000);
  CHECK(ar.ranks == 4);
  CHECK(ar.dtype == DType::fp32);

  CollectiveOp ag = one(line("AllGather", 1000, 9, 4));  // bfloat16: the send count, 4 ranks
  CHECK(ag.kind == CollectiveKind::all_gather);
  CHECK(ag.bytes == 1000 * 2 * 4);
  CHECK(ag.dtype == DType::bf16);

  CollectiveOp rs = one(line("ReduceScatter", 1000, 6, 4));  // float16: the receive count
  CHECK(rs.kind == CollectiveKind::reduce_scatter);
  CHECK(rs.bytes == 1000 * 2 * 4);
  CHECK(rs.dtype == DType::fp16);

  CollectiveOp bc = one(line("Broadcast", 1000, 0, 4, 2));  // int8
  CHECK(bc.kind == CollectiveKind::broadcast);
  CHECK(bc.bytes == 1000);
  CHECK(bc.dtype == DType::int8);

  CollectiveOp red = one(line("Reduce", 1000, 7, 4, 1));  // runs as a broadcast: the same bytes
  CHECK(red.kind == CollectiveKind::broadcast);
  CHECK(red.bytes == 4000);

  CollectiveOp a2a = one(line("AlltoAll", 10, 8, 4));  // float64, count per peer
  CHECK(a2a.kind == CollectiveKind::all_to_all);
  CHECK(a2a.bytes == 10 * 8 * 4);
  CHECK(one(line("AllToAll", 10, 8, 4)).bytes == 320);  // MSCCL/RCCL spelling

  CollectiveOp send = one(line("Send", 524288, 9, 8, 5));  // peer 5 of 8
  CHECK(send.kind == CollectiveKind::send_recv);
  CHECK(send.bytes == 524288 * 2);
  CHECK(send.ranks == 2);
  CHECK_FALSE(send.reverse);
  CollectiveOp recv = one(line("Recv", 524288, 9, 8, 3));
  CHECK(recv.kind == CollectiveKind::send_recv);
  CHECK(recv.bytes == 524288 * 2);
  CHECK(recv.reverse);  // from the peer to this rank
}

TEST_CASE("nccl_log: every ncclDataType_t has its element size") {
  const double sizes[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};
  for (int t = 0; t < 12; ++t) {
    CAPTURE(t);
    CHECK(nccl_type(t, "x").size == sizes[t]);
    CHECK(one(line("AllReduce", 3, t, 2)).bytes == 3 * sizes[t]);
  }
  CHECK(nccl_type(10, "x").dtype == DType::fp8);
  CHECK(nccl_type(11, "x").dtype == DType::fp8);
  CHECK(nccl_type(1, "x").dtype == DType::int8);
}

TEST_CASE("nccl_log: opCount is hexadecimal, later fields are skipped, the prefix names the rank") {
  std::istringstream in(
      "host-a:77:91 [3] NCCL INFO AllReduce: opCount 1a sendbuff 0x1 recvbuff 0x1 count 16 datatype 7 op 0 root 0 "
      "comm 0x9 [nranks=16] stream 0x2 task 3 globalrank 3\n");
  NcclLog log = parse_nccl_log(in, "t.log");
  REQUIRE(log.calls.size() == 1);
  const NcclCall& c = log.calls.front();
  CHECK(c.op_count == 26);
  CHECK(c.count == 16);
  CHECK(c.nranks == 16);
  CHECK(c.process == "host-a:77");
  CHECK(c.device == 3);
  CHECK(c.comm == "0x9");
  CHECK(c.line == 1);
  CHECK(log.rank == "host-a:77 [3]");
}

TEST_CASE("nccl_log: a timestamp before the prefix and other NCCL lines are fine") {
  std::istringstream in(
      "vm:623:623 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\n"
      "vm:623:623 [0] NCCL INFO AllReduce: 4096 Bytes -> Algo RING proto LL\n"
      "[2026-11-23 08:00:00] vm:623:630 [0] NCCL INFO Broadcast: opCount 0 sendbuff 0x1 recvbuff 0x1 count 8 datatype 0 "
      "op 0 root 1 comm 0x9 [nranks=2] stream 0x2\n");
  NcclLog log = parse_nccl_log(in, "t.log");
  REQUIRE(log.calls.size() == 1);
  CHECK(log.calls.front().line == 3);
  CHECK(log.calls.front().root == 1);
  CHECK(log.collective_lines == 1);
}
