// Llama-3-70B in bf16 (141 GB of weights) on a 24 GB RTX 4090: one line saying it does not fit,
// exit 4, no output file.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: decode_llama70b on an RTX 4090 is one capacity line") {
  auto json = scratch_dir() / "70b.json";
  CliRun r = run_hwsim("--chip rtx4090 -w decode_llama70b --json '" + json.string() + "'");
  CHECK(r.exit_code == 4);
  CHECK(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "GeForce RTX 4090"));
  CHECK(r.out.empty());
  CHECK_FALSE(std::filesystem::exists(json));
}
