// Every rank logs its own calls: an NCCL log replay keeps one rank's view (the process of the first
// collective line, its lowest [DEV]) and drops lines that repeat a (comm, opCount) group already
// closed, while the calls of one ncclGroup (sharing an opCount) all stay.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "workloads/traces/nccl_log.h"

using namespace hwsim;

namespace {
std::string line(const std::string& who, const std::string& op, int op_count, const std::string& comm, int count = 64,
                 int root = 0) {
  char hex[32];
  std::snprintf(hex, sizeof hex, "%x", op_count);
  return who + " NCCL INFO " + op + ": opCount " + hex + " sendbuff 0x10 recvbuff 0x20 count " + std::to_string(count) +
         " datatype 7 op 0 root " + std::to_string(root) + " comm " + comm + " [nranks=2] stream 0x30\n";
}
NcclLog parse(const std::string& text) {
  std::istringstream in(text);
  return parse_nccl_log(in, "t.log");
}
}  // namespace

TEST_CASE("nccl_log: two processes interleaved: the first line's process is kept") {
  std::string text = line("b:2:2 [1]", "AllReduce", 0, "0xb") + line("a:1:1 [0]", "AllReduce", 0, "0xa") +
                     line("a:1:1 [0]", "AllGather", 1, "0xa") + line("b:2:2 [1]", "AllGather", 1, "0xb");
  NcclLog log = parse(text);
  CHECK(log.rank == "b:2 [1]");
  CHECK(log.collective_lines == 4);
  REQUIRE(log.calls.size() == 2);
  CHECK(log.calls[0].line == 1);
  CHECK(log.calls[1].line == 4);
  CHECK(log.calls[1].op == "AllGather");
}

TEST_CASE("nccl_log: one process driving several GPUs: its lowest [DEV] is kept, even when it logs later") {
  std::string text = line("h:5:7 [3]", "AllReduce", 0, "0x3") + line("h:5:8 [1]", "AllReduce", 0, "0x1") +
                     line("h:5:9 [0]", "AllReduce", 0, "0x0") + line("h:5:7 [3]", "Broadcast", 1, "0x3") +
                     line("h:5:9 [0]", "Broadcast", 1, "0x0") + line("h:5:8 [1]", "Broadcast", 1, "0x1");
  NcclLog log = parse(text);
  CHECK(log.rank == "h:5 [0]");
  REQUIRE(log.calls.size() == 2);
  CHECK(log.calls[0].line == 3);
  CHECK(log.calls[1].line == 5);
  CHECK(log.calls[1].comm == "0x0");
}

TEST_CASE("nccl_log: the calls of one group share an opCount and all stay and a repeated block is dropped") {
  // An all-to-all by grouped send/recv (opCount 2 four times) and an aggregated pair of identical
  // all-reduces (nccl-tests -m 2: opCount 3 twice).
  std::string block = line("h:1:1 [0]", "AllReduce", 0, "0xc") + line("h:1:1 [0]", "AllReduce", 1, "0xc") +
                      line("h:1:1 [0]", "Send", 2, "0xc", 64, 0) + line("h:1:1 [0]", "Recv", 2, "0xc", 64, 0) +
                      line("h:1:1 [0]", "Send", 2, "0xc", 64, 1) + line("h:1:1 [0]", "Recv", 2, "0xc", 64, 1) +
                      line("h:1:1 [0]", "AllReduce", 3, "0xc") + line("h:1:1 [0]", "AllReduce", 3, "0xc");
  NcclLog once = parse(block);
  CHECK(once.calls.size() == 8);
  CHECK(once.duplicates == 0);

  NcclLog twice = parse(block + block);  // the same lines captured twice
  CHECK(twice.calls.size() == 8);
  CHECK(twice.duplicates == 8);
  CHECK(twice.calls.back().line == 8);

  // (comm, opCount) is per communicator: another comm's opCount 0 after this one's 3 is new.
  NcclLog two_comms = parse(block + line("h:1:1 [0]", "AllReduce", 0, "0xd"));
  CHECK(two_comms.calls.size() == 9);
  CHECK(two_comms.duplicates == 0);
}

TEST_CASE("nccl_log: the shipped H200x2 sample keeps rank 0's twelve calls of twenty-four lines") {
  std::ifstream in(std::string(HWSIM_SOURCE_DIR) + "/tests/data/nccl_h200x2_step.log");
  REQUIRE(in);
  NcclLog log = parse_nccl_log(in, "nccl_h200x2_step.log");
  CHECK(log.rank == "vm:623 [0]");
  CHECK(log.collective_lines == 24);
  CHECK(log.duplicates == 0);
  REQUIRE(log.calls.size() == 12);
  for (const auto& c : log.calls) CHECK(c.comm == "0x386352d0");
  CHECK(log.calls[5].op == "Send");
  CHECK(log.calls[6].op == "Recv");
  CHECK(log.calls[5].op_count == log.calls[6].op_count);
  CHECK(log.calls[11].op_count == 10);  // "opCount a"
}
