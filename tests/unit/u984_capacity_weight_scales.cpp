// A weight-only model holds its quantisation scales too: the capacity check adds the device's own
// (llama.cpp's Q4_0 on a CPU: an fp16 scale per 32 weights; torchao's int4 on a GPU: a bf16 scale and
// zero per 128) to the packed weights, so a memory that holds the packed bytes but not the scales
// refuses the run, and one that holds both runs it.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include "run/capacity.h"
#include "sim/error.h"
#include "tests/fixtures/json_run.h"
#include "workloads/llm/capacity.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
const char* kSpec = "decode:model=llama2_7b,weights=int4,kv=fp16,context=64";

// The run's bytes without scales, and its weight-only weights (elements).
std::pair<double, double> packed_and_quantised() {
  Workload w = WorkloadCatalog::build(kSpec);
  REQUIRE(w.llm);
  return {footprint_bytes(*w.llm, w.llm->batch, w.llm->context), w.llm->quantised_weights};
}
}  // namespace

TEST_CASE("capacity: int4 weights count their matrices, not the embedding or norms") {
  Workload w = WorkloadCatalog::build(kSpec);
  REQUIRE(w.llm);
  // Llama-2-7B: 32 layers of 4·4096² attention and 3·4096·11008 FFN weights, an untied 32000-row head.
  double matrices = 32 * (4.0 * 4096 * 4096 + 3.0 * 4096 * 11008) + 32000.0 * 4096;
  CHECK(w.llm->quantised_weights == doctest::Approx(matrices));
  CHECK(w.llm->weights_dtype == DType::int4);
  CHECK(WorkloadCatalog::build("decode:model=llama2_7b,context=64").llm->quantised_weights == 0);  // bf16
}

TEST_CASE("capacity: Q4_0 on a CPU whose DRAM holds the packed weights but not their scales is refused") {
  auto [packed, quantised] = packed_and_quantised();
  double scales = quantised * 2.0 / 32;  // llama.cpp Q4_0: an fp16 scale per 32 weights
  auto dram = [](double bytes) { return fmt::format("memory.dram.size={:.0f}B", bytes); };
  CliRun refused = run_hwsim(fmt::format("--chip apple_m2_pro_cpu --set {} -w {} -q", dram(packed + scales / 2), kSpec));
  CHECK(refused.exit_code == 4);
  CHECK(contains(refused.err, "does not fit apple_m2_pro_cpu"));
  CliRun runs = run_hwsim(fmt::format("--chip apple_m2_pro_cpu --set {} -w {} -q", dram(packed + scales * 1.01), kSpec));
  CHECK(runs.exit_code == 0);
}

TEST_CASE("capacity: a GPU counts torchao's int4 group scale and zero, 4 B per 128 weights") {
  auto [packed, quantised] = packed_and_quantised();
  double scales = quantised * 4.0 / 128;
  auto hbm = [](double bytes) { return fmt::format("memory.hbm.size={:.0f}B", bytes); };
  CHECK(run_hwsim(fmt::format("--chip h100 --set {} -w {} -q", hbm(packed + scales / 2), kSpec)).exit_code == 4);
  CHECK(run_hwsim(fmt::format("--chip h100 --set {} -w {} -q", hbm(packed + scales * 1.01), kSpec)).exit_code == 0);
}

TEST_CASE("capacity: int4 weights that overflow a microcontroller are not told to become int4") {
  CliRun r = run_hwsim("--chip cortex_m55_u55 -w decode:model=llama3_8b,weights=int4,context=512 -q");
  CHECK(r.exit_code == 4);
  CHECK(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "the weights are already int4"));
  CHECK(!contains(r.err, "weights=fp8/int8/int4"));
}
