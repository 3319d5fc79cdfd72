// --max-memory charges a serving run for the op graphs it holds at once, not for every pass graph
// it built: each pass lowers its graph, runs it and drops it (TransientOps). Charged cumulatively,
// the ~3 MB graphs of a run's passes passed the default 8 GiB after a few thousand passes, and a
// 10,000-request run was refused.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdio>

#include "ops/device.h"
#include "ops/op_graph.h"
#include "run/simulate.h"
#include "sim/engine/isolated_run.h"
#include "sim/memory_budget.h"
#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("memory budget: a serving run is charged for the pass graphs it holds, not every one it built") {
  const double limit = 64.0 * (1 << 20);
  std::string out = run_isolated([&] {
    set_memory_limit(limit);
    const double before = memory_charged();
    RunResult r = simulate(load_chip("h100", {}),
                           WorkloadCatalog::build("serve:model=llama3_8b,requests=40,rate=inf,prompt=64,output=64,reuse=false"));
    return fmt::format("{} {:.17g}", r.serving.simulated_steps, memory_charged() - before);
  });
  long passes = 0;
  double charged = -1;
  REQUIRE(std::sscanf(out.c_str(), "%ld %lg", &passes, &charged) == 2);
  CHECK(passes >= 64);           // each of them lowered a graph of thousands of ops
  CHECK(charged >= 0);
  CHECK(charged < limit / 4);    // what the run still holds: no pass graph
}

TEST_CASE("memory budget: a transient scope gives back the ops added in it, and scopes nest") {
  const double before = memory_charged();
  {
    TransientOps outer;
    OpGraph g;
    add_op(g, Op{});
    {
      TransientOps inner;
      OpGraph h;
      add_op(h, Op{});
      add_op(h, Op{});
      CHECK(memory_charged() > before);
    }
    const double after_inner = memory_charged();
    CHECK(after_inner > before);
    CHECK(after_inner < before + 3 * 2048);
  }
  CHECK(memory_charged() == before);
}
