// Capacity: llama3_70b in bf16 holds 141.1 GB of weights (80 layers × (2·8192² + 2·8192·1024 +
// 3·8192·28672) + 2 × 128256·8192 ≈ 70.55 G parameters × 2 B). One H100 (80 GB) cannot hold them:
// exit 4 (README "Exit codes": a workload the chip cannot run), one line. On dgx_h100 with tp=2
// each GPU holds half, 70.55 GB plus its half of the KV cache: it runs.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli system: decode_llama70b does not fit one H100 but fits dgx_h100 with tp=2") {
  auto refused = scratch_dir() / "refused.json";
  CliRun one = run_hwsim("--chip h100 -w decode_llama70b --json '" + refused.string() + "'");
  CHECK(one.exit_code == 4);
  CHECK(lines_of(one.err).size() == 1);
  CHECK(contains(one.err, "does not fit"));
  CHECK_FALSE(std::filesystem::exists(refused));

  auto json = scratch_dir() / "tp2.json";
  CliRun tp2 = run_hwsim("--system dgx_h100 -w decode_llama70b:tp=2 --quiet --json '" + json.string() + "'");
  REQUIRE(tp2.exit_code == 0);
  auto doc = nlohmann::json::parse(read_text(json));
  const auto& stage = doc["result"]["system"]["stages"][0];
  double held = stage["memory_held"].get<double>();
  CHECK(held > 141.1e9 / 2);
  CHECK(held < 141.1e9 / 2 + 0.2e9);  // + half of the 168 MB KV cache and the activations
  CHECK(held < stage["memory_capacity"].get<double>());
}
