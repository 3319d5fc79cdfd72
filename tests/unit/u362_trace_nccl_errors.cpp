// A collective line of an NCCL log that does not parse is one UserError(workload) line naming
// FILE:LINE and what is wrong; so is a log without collective lines, one with too many, and a log
// whose communicators the replay cannot lay out.
#include <doctest/doctest.h>

#include <sstream>
#include <streambuf>

#include "sim/error.h"
#include "workloads/traces/nccl_log.h"

using namespace hwsim;

namespace {
const std::string kGood =
    "vm:623:623 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 8 datatype 7 op 0 root 0 comm 0xc "
    "[nranks=2] stream 0x2\n";

// The one line parse_nccl_log (and, when it parses, nccl_log_workload) throws for `text`.
std::string error_of(const std::string& text, std::int64_t world = 0) {
  try {
    std::istringstream in(text);
    NcclLog log = parse_nccl_log(in, "t.log");
    nccl_log_workload(log, world);
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::workload);
    CHECK(std::string(e.what()).find('\n') == std::string::npos);
    return e.what();
  }
  FAIL("no error for " << text);
  return "";
}
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A log of `n` copies of one collective line, produced as it is read.
class RepeatedLog : public std::streambuf {
 public:
  RepeatedLog(std::string line, std::size_t n) : line_(std::move(line)), left_(n) {}

 protected:
  int_type underflow() override {
    if (left_ == 0) return traits_type::eof();
    --left_;
    setg(line_.data(), line_.data(), line_.data() + line_.size());
    return traits_type::to_int_type(line_[0]);
  }

 private:
  std::string line_;
  std::size_t left_;
};
}  // namespace

TEST_CASE("nccl_log: each malformed collective line is one error naming file:line and the problem") {
  auto bad = [](const std::string& broken) { return error_of(kGood + broken); };  // the bad line is line 2
  CHECK(has(bad("AllReduce: opCount 0 count 8 datatype 7 comm 0xc [nranks=2]\n"), "t.log:2: a collective line"));
  CHECK(has(bad("NCCL INFO AllReduce: opCount 0 count 8 datatype 7 comm 0xc [nranks=2]\n"),
            "t.log:2: expected 'HOST:PID:TID [DEV]'"));
  CHECK(has(bad("vm:1:1 [x] NCCL INFO AllReduce: opCount 0 count 8 datatype 7 comm 0xc [nranks=2]\n"),
            "t.log:2: expected 'HOST:PID:TID [DEV]'"));
  std::string typo = bad("vm:1:1 [0] NCCL INFO AllReduc: opCount 0 count 8 datatype 7 comm 0xc [nranks=2]\n");
  CHECK(has(typo, "t.log:2: AllReduc: not a collective hwsim replays (did you mean AllReduce?)"));
  CHECK(has(typo, "ReduceScatter"));
  CHECK(has(bad("vm:1:1 [0] NCCL INFO Gather: opCount 0 count 8 datatype 7 root 0 comm 0xc [nranks=2]\n"),
            "t.log:2: Gather: not a collective hwsim replays"));
  CHECK(has(bad("vm:1:1 [0] NCCL INFO All Reduce: opCount 0 count 8 datatype 7 comm 0xc [nranks=2]\n"),
            "t.log:2: expected 'NCCL INFO NAME: opCount"));
  CHECK(has(bad("vm:1:1 [0] NCCL INFO AllReduce: opCount 0 count 8x datatype 7 comm 0xc [nranks=2]\n"),
            "t.log:2: AllReduce: count '8x' is not a whole number"));
  CHECK(has(bad("vm:1:1 [0] NCCL INFO AllReduce: opCount 0 count -8 datatype 7 comm 0xc [nranks=2]\n"),
            "count '-8' is not a whole number"));
  CHECK(has(bad("vm:1:1 [0] NCCL INFO AllReduce: opCount zz count 8 datatype 7 comm 0xc [nranks=2]\n"),
            "t.log:2: AllReduce: opCount 'zz' is not a hexadecimal count"));
  CHECK(has(bad("vm:1:1 [0] NCCL INFO AllReduce: opCount 0 count 8 datatype 7 comm 0xc stream 0x2\n"),
            "t.log:2: AllReduce: no nranks ([nranks=N])"));
  CHECK(has(bad("vm:1:1 [0] NCCL INFO AllReduce: opCount 0 count 8 datatype 7 comm 0xc [nranks=0]\n"),
            "t.log:2: AllReduce: nranks '0' is not a whole number >= 1"));
  CHECK(has(bad("vm:1:1 [0] NCCL INFO AllReduce: opCount 0 count 8 datatype 7 [nranks=2]\n"),
            "t.log:2: AllReduce: no comm"));
  CHECK(has(bad("vm:1:1 [0] NCCL INFO AllReduce: opCount 0 datatype 7 comm 0xc [nranks=2]\n"),
            "t.log:2: AllReduce: no count"));
  CHECK(has(bad("vm:1:1 [0] NCCL INFO AllReduce: opCount 0 count 8 datatype 12 comm 0xc [nranks=2]\n"),
            "t.log:2: AllReduce: datatype 12 is not an ncclDataType_t (0 int8"));
  CHECK(has(bad("vm:1:1 [0] NCCL INFO AllReduce: opCount 0 count 8 count 9 datatype 7 comm 0xc [nranks=2]\n"),
            "t.log:2: AllReduce: count given twice"));
  CHECK(has(bad("vm:1:1 [0] NCCL INFO AllReduce: opCount 0 count 8 datatype 7 comm 0xc [nranks=2] stream\n"),
            "t.log:2: AllReduce: stream has no value"));
  CHECK(has(bad("vm:1:1 [0] NCCL INFO Send: opCount 0 count 8 datatype 7 comm 0xc [nranks=2]\n"),
            "t.log:2: Send: no root (the peer of a Send)"));
  CHECK(has(bad("vm:1:1 [0] NCCL INFO Recv: opCount 0 count 8 datatype 7 root 5 comm 0xc [nranks=2]\n"),
            "t.log:2: Recv: peer 5 is not a rank of the 2-rank communicator"));
  // A bad line of another rank is an error too: the file is wrong.
  CHECK(has(bad("other:9:9 [4] NCCL INFO AllReduce: opCount 0 count 8 datatype 7 comm 0xc\n"), "t.log:2: AllReduce: no nranks"));
}

TEST_CASE("nccl_log: a log without collective lines, or with only local ones, says what it needs") {
  std::string none = error_of("vm:623:623 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\nhello\n");
  CHECK(has(none, "t.log: no collective lines"));
  CHECK(has(none, "NCCL_DEBUG_SUBSYS=COLL"));
  CHECK(has(error_of(""), "no collective lines"));
  std::string local = error_of(
      "h:1:1 [0] NCCL INFO AllReduce: opCount 0 count 8 datatype 7 comm 0xc [nranks=1]\n"
      "h:1:1 [0] NCCL INFO AllReduce: opCount 0 count 0 datatype 7 comm 0xd [nranks=4]\n");
  CHECK(has(local, "t.log: none of the 2 collective call(s) of rank h:1 [0] moves data"));
}

TEST_CASE("nccl_log: layouts the replay cannot build are refused") {
  auto call = [](const std::string& op, int nranks, int root = 0) {
    return "h:1:1 [0] NCCL INFO " + op + ": opCount 0 count 8 datatype 7 root " + std::to_string(root) +
           " comm 0x" + std::to_string(nranks) + " [nranks=" + std::to_string(nranks) + "]\n";
  };
  CHECK(has(error_of(call("AllReduce", 4), 2), "t.log: ranks=2 is fewer than the 4 ranks of the communicator of line 1"));
  CHECK(has(error_of(call("AllReduce", 8) + call("AllReduce", 4) + call("AllReduce", 2)),
            "t.log: collectives among 2 and 4 ranks within 8"));
  CHECK(has(error_of(call("AllReduce", 3), 8), "collectives among 3 ranks do not tile the 8 ranks"));
  CHECK(has(error_of(call("Send", 3, 1)), "must be a multiple of 2"));
}

TEST_CASE("nccl_log: more than a million calls of one rank is an error, not an hour of parsing later") {
  RepeatedLog buffer(kGood, kMaxTraceOps + 1);
  std::istream in(&buffer);
  try {
    parse_nccl_log(in, "big.log");
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::workload);
    CHECK(has(e.what(), "big.log: rank vm:623 [0] logged more than 1000000 collective calls"));
  }
}
