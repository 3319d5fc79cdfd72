// The curriculum's speculative-decoding lesson on Llama-3-8B/H100 at batch 1 (memory-bound decode)
// with the Llama-3.2-1B draft, k=4: a well-matched draft (accept=0.9, (1 − 0.9^5)/0.1 = 4.1 tokens
// per step) serves faster than no speculation; a poorly matched one (accept=0.1, 1.11 tokens per
// step) is slower, as on real hardware: the 4 draft passes and the 5-token verification cost more
// than the ~0.1 extra token they buy. The run reports its own baseline.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
nlohmann::json speculative(const std::string& accept) {
  auto doc = scratch_dir() / ("spec_" + accept + ".json");
  CliRun r = run_hwsim("--chip h100 -q -w serve:model=llama3_8b,requests=1,prompt=64,output=48,draft=llama3_2_1b,k=4,"
                       "accept=" + accept + " --json '" + doc.string() + "'");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return nlohmann::json::parse(read_text(doc))["result"]["serving"]["speculative"];
}
}  // namespace

TEST_CASE("cli serve: a good draft speeds decoding up, a bad one slows it down") {
  auto good = speculative("0.9"), bad = speculative("0.1");
  CHECK(good["expected_tokens_per_step"].get<double>() == doctest::Approx((1 - 0.59049) / 0.1));
  CHECK(bad["expected_tokens_per_step"].get<double>() == doctest::Approx(1.1111).epsilon(1e-4));
  CHECK(good["baseline"]["speedup"].get<double>() > 1.3);
  CHECK(bad["baseline"]["speedup"].get<double>() < 1.0);
  CHECK(good["draft_share"].get<double>() > 0);
  CHECK(good["draft_share"].get<double>() < 0.5);
}
