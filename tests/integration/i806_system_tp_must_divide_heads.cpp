// tp must divide the attention heads: llama3_8b has 32 query heads and 8 KV heads, so tp=3 is
// refused on a system run (exit 4, one line), naming the tp values that would work (1, 2, 4, 8).
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli system: tp=3 with llama3_8b on dgx_h100 exits 4 naming the heads") {
  auto json = scratch_dir() / "never.json";
  CliRun r = run_hwsim("--system dgx_h100 -w decode_llama8b:tp=3 --json '" + json.string() + "'");
  CHECK(r.exit_code == 4);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "tp=3"));
  CHECK(contains(r.err, "heads"));
  CHECK(contains(r.err, "1, 2, 4, 8"));
  CHECK_FALSE(std::filesystem::exists(json));
}
