// The generic runner drives a device kind it has never heard of (the test-only "fake" kind): the
// step loop, the framework pass (the device's default, or the workload's), capacity against the
// device's own main memory, metric derivation and detail roll-up, all without a GPU.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "run/simulate.h"
#include "tests/fixtures/test_support.h"
#include "tests/unit/u7_fake_device.h"
#include "workloads/workload.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("runner: a gemm on the fake device is one record of 1 us with its FLOPs and SRAM bytes") {
  Config config = load_chip(fixture("config/good/fake_device.toml"), {});
  RunResult r = simulate(config, WorkloadCatalog::build("gemm:M=64,N=64,K=64,dtype=bf16"));
  CHECK(r.device_kind == "fake");
  CHECK(r.memory_levels == std::vector<std::string>{"sram"});
  REQUIRE(r.steps.size() == 1);
  REQUIRE(r.steps[0].records.size() == 1);
  CHECK(r.seconds == doctest::Approx(1e-6));
  CHECK(r.flops == 2.0 * 64 * 64 * 64);
  CHECK(r.bytes_at("sram") == doctest::Approx(3.0 * 64 * 64 * 2));
  CHECK(r.memory_bytes == r.bytes_at("sram"));
  CHECK(r.detail("widgets") == 1);
  CHECK(r.breakdown.compute == doctest::Approx(1e-6));
  CHECK_FALSE(r.llm.present);
}

namespace {
std::size_t decode_records(const std::string& extra) {
  Config config = load_chip(fixture("config/good/fake_device.toml"), {"fake.sram=1 TB"});
  RunResult r = simulate(config, WorkloadCatalog::build("decode:model=llama3_8b,batch=1,context=16,layers=1" + extra));
  return r.steps.at(0).records.size();
}
}  // namespace

// One simulation per process: each framework in its own test case.
TEST_CASE("runner: the device's default framework pass applies (fused on the fake device)") {
  // embed, final_norm, lm_head and per layer 12 ops: norm, qkv, rope, kv_append, attention,
  // o_proj, residual, norm, gate_up, silu_mul, down, residual.
  CHECK(decode_records("") == 1 + 12 + 2);
}

TEST_CASE("runner: a workload's framework pass wins over the device's default") {
  // eager: RoPE's 10 parts instead of 1, the append's 2, SiLU·mul's 2: 11 more.
  CHECK(decode_records(",kernels=eager") == 1 + 12 + 2 + 11);
}

TEST_CASE("runner: language-model metrics are derived once, for any device") {
  Config config = load_chip(fixture("config/good/fake_device.toml"), {"fake.sram=1 TB"});
  RunResult r = simulate(config, WorkloadCatalog::build("decode:model=llama3_8b,batch=4,context=16,layers=1"));
  REQUIRE(r.llm.present);
  CHECK(r.llm.tokens == 4);
  CHECK(r.llm.tokens_per_second == doctest::Approx(4 / r.seconds));
  CHECK(r.detail("widgets") == double(r.steps[0].records.size()));
}

TEST_CASE("runner: the capacity check uses the device's own main memory") {
  Config config = load_chip(fixture("config/good/fake_device.toml"), {});  // 1 MiB of SRAM
  CHECK_THROWS_WITH_AS(simulate(config, WorkloadCatalog::build("decode_llama8b")),
                       doctest::Contains("does not fit fake chip"), UserError);
}
