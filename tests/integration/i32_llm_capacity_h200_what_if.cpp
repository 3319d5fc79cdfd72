// Capacity: Mixtral in bf16 (93 GB of weights) does not fit an H100's 80 GB, one line saying so;
// the H200 what-if (141 GB) runs it.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: decode_mixtral does not fit an H100 but fits the H200 what-if") {
  CliRun h100 = run_hwsim("--chip configs/h100.toml --workload decode_mixtral --quiet");
  CHECK(h100.exit_code == 4);
  CHECK(lines_of(h100.err).size() == 1);
  CHECK(contains(h100.err, "weights alone do not fit"));

  CliRun h200 = run_hwsim("--chip configs/h200.toml --workload decode_mixtral --quiet");
  CHECK(h200.exit_code == 0);
}

TEST_CASE("cli: a KV cache too large names the largest batch and context that fit") {
  CliRun r = run_hwsim("--chip configs/h100.toml --workload decode_llama8b:batch=256,context=8191 --quiet");
  CHECK(r.exit_code == 4);
  CHECK(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "largest batch at 8192 positions"));
  CHECK(contains(r.err, "largest context at batch 256"));
}
