// An NCCL log replay is one step: one collective per call of the kept rank, a chain in log order;
// its layout puts the largest communicator on axis world, one smaller group size on tp and
// send/recv between two pipeline stages.
#include <doctest/doctest.h>

#include <sstream>

#include "ops/op_graph.h"
#include "sim/error.h"
#include "workloads/traces/nccl_log.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
const std::string kSample = std::string(HWSIM_SOURCE_DIR) + "/tests/data/nccl_h200x2_step.log";

const CollectiveOp& coll(const OpGraph& g, OpVertex v) { return std::get<CollectiveOp>(g[v].shape); }

Workload from_text(const std::string& text, std::int64_t world = 0) {
  std::istringstream in(text);
  return nccl_log_workload(parse_nccl_log(in, "t.log"), world);
}
std::string call(const std::string& op, int nranks, int count = 1024, int root = 0) {
  return "h:1:1 [0] NCCL INFO " + op + ": opCount 0 count " + std::to_string(count) + " datatype 9 root " +
         std::to_string(root) + " comm 0x" + std::to_string(nranks) + " [nranks=" + std::to_string(nranks) + "]\n";
}
}  // namespace

TEST_CASE("nccl_log: the H200x2 sample is one step, a chain of rank 0's calls with nccl-tests sizes") {
  Workload w = WorkloadCatalog::build("nccl_log:file=" + kSample);
  CHECK(w.kind == "nccl_log");
  REQUIRE(w.steps.size() == 1);
  CHECK(w.steps[0].label == "nccl_h200x2_step.log");
  const OpGraph& g = w.steps[0].graph;
  // Twelve calls; the AllReduce of count 0 (line 23) moves nothing and is left out.
  REQUIRE(boost::num_vertices(g) == 11);
  const char* names[] = {"AllReduce@9",  "AllGather@11", "ReduceScatter@13", "Broadcast@15",
                         "Reduce@17",    "Send@19",      "Recv@21",          "AllReduce@25",
                         "AllGather@27", "AllReduce@29", "AllReduce@31"};
  const double bytes[] = {4194304.0 * 2, 1048576.0 * 2 * 2, 1048576.0 * 4 * 2, 1024, 262144.0 * 4, 524288.0 * 2,
                          524288.0 * 2,  4,                 2097152.0 * 2 * 2, 8388608.0 * 2, 4};
  auto order = execution_order(g);
  for (std::size_t i = 0; i < order.size(); ++i) {
    CAPTURE(i);
    OpVertex v = order[i];
    CHECK(g[v].name == names[i]);
    CHECK(g[v].op_class == "collective");
    CHECK(coll(g, v).bytes == bytes[i]);
    CHECK(boost::in_degree(v, g) == (i == 0 ? 0u : 1u));
    if (i > 0) CHECK(boost::source(*boost::in_edges(v, g).first, g) == order[i - 1]);
  }
  CHECK(coll(g, order[4]).kind == CollectiveKind::broadcast);  // Reduce
  // Send/Recv run between two pipeline stages of one rank each; the rest among both ranks.
  CHECK(coll(g, order[5]).kind == CollectiveKind::send_recv);
  CHECK(coll(g, order[5]).axis == ParallelAxis::pp);
  CHECK_FALSE(coll(g, order[5]).reverse);
  CHECK(coll(g, order[6]).reverse);  // Recv: from rank 1 to rank 0
  CHECK(coll(g, order[0]).axis == ParallelAxis::world);
  CHECK(coll(g, order[0]).ranks == 2);
  CHECK(w.parallel.pp == 2);
  CHECK(w.parallel.ranks() == 2);
}

TEST_CASE("nccl_log: one smaller communicator is the tp axis and ranks=N replays on more devices") {
  Workload mixed = from_text(call("AllReduce", 8) + call("AllReduce", 2) + call("AllGather", 8));
  CHECK(mixed.parallel.tp == 2);
  CHECK(mixed.parallel.dp == 4);
  CHECK(mixed.parallel.pp == 1);
  auto order = execution_order(mixed.steps[0].graph);
  CHECK(coll(mixed.steps[0].graph, order[0]).axis == ParallelAxis::world);
  CHECK(coll(mixed.steps[0].graph, order[0]).ranks == 8);
  CHECK(coll(mixed.steps[0].graph, order[1]).axis == ParallelAxis::tp);
  CHECK(coll(mixed.steps[0].graph, order[1]).ranks == 2);
  CHECK(coll(mixed.steps[0].graph, order[2]).bytes == 1024.0 * 2 * 8);

  Workload plain = from_text(call("AllReduce", 4));
  CHECK(plain.parallel.dp == 4);
  CHECK(plain.parallel.ranks() == 4);

  Workload wider = from_text(call("AllReduce", 2) + call("Send", 2, 64, 1), 8);  // every 2-rank group of 8 devices
  CHECK(wider.parallel.tp == 2);
  CHECK(wider.parallel.pp == 2);
  CHECK(wider.parallel.dp == 2);
  CHECK(coll(wider.steps[0].graph, execution_order(wider.steps[0].graph)[0]).axis == ParallelAxis::tp);
}

TEST_CASE("nccl_log: spec fields: file is required, ranks checked, a missing file is an io error") {
  auto error_of = [](const std::string& spec) -> std::pair<ExitCode, std::string> {
    try {
      WorkloadCatalog::build(spec);
    } catch (const UserError& e) {
      return {e.code(), e.what()};
    }
    FAIL("no error for " << spec);
    return {};
  };
  auto [code, missing] = error_of("nccl_log");
  CHECK(code == ExitCode::workload);
  CHECK(missing.find("file: missing") != std::string::npos);
  auto [code2, unknown] = error_of("nccl_log:file=" + kSample + ",rank=2");
  CHECK(code2 == ExitCode::workload);
  CHECK(unknown.find("rank: unknown field") != std::string::npos);
  auto [code3, zero] = error_of("nccl_log:file=" + kSample + ",ranks=0");
  CHECK(code3 == ExitCode::workload);
  CHECK(zero.find("ranks: '0' must be at least 1") != std::string::npos);
  auto [code4, absent] = error_of("nccl_log:file=/nonexistent/x.log");
  CHECK(code4 == ExitCode::io);
  CHECK(absent.rfind("/nonexistent/x.log: cannot read NCCL log", 0) == 0);
  auto [code5, folder] = error_of("nccl_log:file=" + std::string(HWSIM_SOURCE_DIR));
  CHECK(code5 == ExitCode::io);
  CHECK(folder.find("it is a folder") != std::string::npos);
}
