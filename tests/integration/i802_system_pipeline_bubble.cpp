// Pipeline bubble: decode of llama3_8b, batch 8 as 2 microbatches of 4, on 2 stages of h200x2.
// With one microbatch of 4 through both stages taking T1 = s0 + s1 (the run with batch=4 and no
// microbatches), two microbatches take s0 + s1 + max(s0, s1) (GPipe: stage 1 starts microbatch 0
// after stage 0 has finished it; stage 0 has nothing to do once microbatch 1 is sent), so between
// 1.5·T1 and 2·T1. Stage 1 is idle at least until microbatch 0 arrives; stage 0 at least from the
// arrival of microbatch 1 at stage 1 to the end.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/json_run.h"

using namespace hwsim::test;

namespace {
nlohmann::json run_json(const std::string& workload, const std::string& file) {
  return run_hwsim_json("--system h200x2 -w " + workload, file);
}
// The record named `name` in the (only) step.
const nlohmann::json& record(const nlohmann::json& doc, const std::string& name) {
  for (const auto& k : doc["result"]["steps"][0]["kernels"])
    if (k["name"] == name) return k;
  FAIL("no record " << name);
  static nlohmann::json none;
  return none;
}
}  // namespace

TEST_CASE("cli system: two microbatches on two stages show the pipeline bubble") {
  auto one = run_json("decode:model=llama3_8b,batch=4,context=512,pp=2", "one.json");
  auto two = run_json("decode:model=llama3_8b,batch=8,context=512,pp=2,microbatches=2", "two.json");
  double t1 = one["result"]["seconds"].get<double>();
  double t = two["result"]["seconds"].get<double>();
  CHECK(t > t1);
  CHECK(t < 2 * t1);
  CHECK(t > 1.4 * t1);  // s0 + s1 + max(s0, s1) ≥ 1.5 (s0 + s1), less a little for the sends

  const auto& stages = two["result"]["system"]["stages"];
  REQUIRE(stages.size() == 2);
  CHECK(two["result"]["system"]["layout"] == "tp=1 pp=2 ep=1 dp=1 microbatches=2");
  // Layers 0-15 on stage 0, 16-31 on stage 1; microbatches prefix their ops with mb0., mb1.
  double arrives = record(two, "mb0.L15.send_recv")["end"].get<double>();
  double first_on_stage1 = record(two, "mb0.L16.attn_norm")["start"].get<double>();
  CHECK(first_on_stage1 >= arrives);
  double last_send = record(two, "mb1.L15.send_recv")["end"].get<double>();
  CHECK(stages[1]["idle"].get<double>() >= arrives);
  CHECK(stages[0]["idle"].get<double>() >= t - last_send);
  CHECK(stages[0]["idle"].get<double>() > 0);
  CHECK(stages[1]["idle"].get<double>() > 0);
}
