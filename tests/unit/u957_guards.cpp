// Guards of the generic core: error lines (sim/error.h), the memory budget (sim/memory_budget.h), TOML nesting
// (sim/config/toml_text.h) and did-you-mean on words no key is near (sim/did_you_mean.h).
#include <doctest/doctest.h>

#include <toml++/toml.h>

#include "sim/config/toml_text.h"
#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "ops/op_graph.h"
#include "sim/memory_budget.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;

TEST_CASE("memory budget: an estimate over --max-memory is one line with both numbers") {
  CHECK(memory_limit() == kDefaultMaxMemory);
  CHECK_NOTHROW(require_memory(1e9, "a small thing"));
  set_memory_limit(1 << 20);
  try {
    require_memory(3e6, "the warp model's tag stores");
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::workload);
    CHECK(std::string(e.what()) ==
          "the warp model's tag stores needs about 2.86 MiB of host memory, more than the 1 MiB that --max-memory allows");
  }
  CHECK_THROWS_AS(set_memory_limit(0), UserError);
}

TEST_CASE("toml nesting: deep keys and brackets are refused before toml++ recurses; lists and numbers are not") {
  std::string deep = "a";
  for (int i = 0; i < 100; ++i) deep += ".a";
  CHECK_THROWS_WITH_AS(parse_toml_text("x = 1\n" + deep + " = 1\n", "f.toml", ExitCode::config),
                       "f.toml:2: a key or table nested more than 64 levels deep (a dotted key of that many parts?)",
                       UserError);
  CHECK_THROWS_AS(parse_toml_text("x = " + std::string(100, '[') + "\n", "f.toml", ExitCode::usage), UserError);
  std::string list = "values = [";
  for (int i = 0; i < 200; ++i) list += "1.5, ";
  toml::table t = parse_toml_text(list + "2.5]\n# a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z\nname = \"a.b.c\"\n",
                                  "f.toml", ExitCode::config);
  CHECK(t["values"].as_array()->size() == 201);
}

TEST_CASE("did you mean: a word no key is near costs nothing and suggests nothing") {
  std::vector<std::string> keys = {"memory.hbm.bandwidth", "gpu.sm_count"};
  CHECK(did_you_mean("memory.hbm.bandwith", keys) == " (did you mean memory.hbm.bandwidth?)");
  CHECK(closest_match(std::string(8 << 20, 'x'), keys).empty());
  CHECK(closest_match(std::string(200, 'x'), keys).empty());
}

TEST_CASE("memory budget: charges add up until the limit, and a harness may forget them") {
  set_memory_limit(10000);
  for (int i = 0; i < 4; ++i) charge_memory(2048, "the workload's op graphs");
  CHECK_THROWS_WITH_AS(charge_memory(2048, "the workload's op graphs"),
                       "the workload's op graphs needs about 10 KiB of host memory, more than the 9.77 KiB that --max-memory "
                       "allows",
                       UserError);
  reset_memory_charges();
  CHECK_NOTHROW(charge_memory(2048, "the workload's op graphs"));
}

TEST_CASE("error line: control characters become '?' and an over-long line keeps its start and its end") {
  CHECK(UserError(ExitCode::workload, "a\nb\tc").what() == std::string("a?b?c"));
  std::string quoted(10000, 'x');
  std::string line = UserError(ExitCode::workload, "file:1: unknown '" + quoted + "'; known: a, b").what();
  CHECK(line.size() <= kMaxErrorLine + 8);
  CHECK(line.rfind("file:1: unknown 'xxx", 0) == 0);
  CHECK(line.find(" ... ") != std::string::npos);
  CHECK(line.substr(line.size() - 14) == "'; known: a, b");
  // A cut never splits a UTF-8 sequence.
  std::string wide;
  for (int i = 0; i < 3000; ++i) wide += "é";
  std::string cut = UserError(ExitCode::workload, wide).what();
  CHECK(cut.find(" ... ") % 2 == 0);
}

TEST_CASE("memory budget: a graph builder's up-front estimate counts the graph and its pass's copy") {
  set_memory_limit(1 << 20);
  reset_memory_charges();
  CHECK_NOTHROW(expect_ops(200, "a small graph"));  // 200 ops × 2 copies × 2 KiB = 800 KiB
  CHECK_THROWS_WITH_AS(expect_ops(300, "the training step's op graph (microbatches=4096)"),
                       "the training step's op graph (microbatches=4096) needs about 1.17 MiB of host memory, more than the "
                       "1 MiB that --max-memory allows",
                       UserError);
  set_memory_limit(kDefaultMaxMemory);
}
