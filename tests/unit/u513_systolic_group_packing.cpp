// A batched GEMM of many small groups (decode attention: one (sequence, KV head) each) packs
// groups into one pipeline step and chains their folds, instead of paying a step per group: fewer steps, the same folds and MACs, a shorter estimated and simulated
// time; packs divide the groups evenly; groups too large for one block are never packed.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "run/simulate.h"
#include "models/systolic/gemm_blocking.h"
#include "models/systolic/pipeline_estimate.h"
#include "tests/fixtures/test_support.h"
#include "workloads/workload.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
SystolicChip v5e() { return SystolicChip::from_config(load_chip("tpu_v5e", {})); }

// 4096 groups of [8 x 512] x [512 x 128]ᵀ: one block each.
GemmProblem small_groups(std::int64_t groups) {
  GemmProblem p;
  p.m = 8, p.n = 512, p.k = 128, p.groups = groups;
  return p;
}
}  // namespace

TEST_CASE("systolic packing: small groups share steps with the same folds and MACs and a shorter estimate") {
  SystolicChip chip = v5e();
  GemmProblem p = small_groups(4096);
  auto best = choose_gemm_blocking(p, chip);
  REQUIRE(best);
  CHECK(best->groups_per_step > 1);
  CHECK(4096 % best->groups_per_step == 0);
  GemmBlocking single = *best;
  single.groups_per_step = 1;
  Phase packed = gemm_phase(p, *best, chip, "packed"), alone = gemm_phase(p, single, chip, "alone");
  CHECK(packed.total_steps() * best->groups_per_step == alone.total_steps());
  CHECK(packed.folds == alone.folds);
  CHECK(packed.mxu_macs == doctest::Approx(alone.mxu_macs));
  // One per-step cost per pack rather than per group (the arrays' fill and drain is paid once per
  // phase either way: the chain runs on from step to step).
  CHECK(estimate_phase(packed, chip) < 0.6 * estimate_phase(alone, chip));
  CHECK(best->vmem_footprint <= chip.vmem_bytes);
}

TEST_CASE("systolic packing: packs divide the groups (24 groups never pack as 16 + 8)") {
  SystolicChip chip = v5e();
  for (std::int64_t groups : {24, 96, 384, 1000}) {
    auto best = choose_gemm_blocking(small_groups(groups), chip);
    REQUIRE(best);
    CAPTURE(groups);
    CHECK(groups % best->groups_per_step == 0);
  }
}

TEST_CASE("systolic packing: groups larger than one block are never packed") {
  GemmProblem p;
  p.m = 4096, p.n = 4096, p.k = 4096, p.groups = 8;  // MoE-sized experts
  auto best = choose_gemm_blocking(p, v5e());
  REQUIRE(best);
  CHECK(best->groups_per_step == 1);
}

TEST_CASE("systolic packing: decode attention at batch 512 on TPU v6e stays within a few times its floor") {
  // Before packing every (sequence, KV head) paid its own step and fill: 48x the floor.
  RunResult r = simulate(load_chip("tpu_v6e", {}), WorkloadCatalog::build("decode:model=llama3_8b,batch=512,context=128"));
  double attention = 0, floor = 0;
  for (const auto& k : r.steps[0].records)
    if (k.op_class == "attention") attention += k.seconds, floor += k.roofline_floor;
  CHECK(attention > floor);
  CHECK(attention < 4 * floor);
}
