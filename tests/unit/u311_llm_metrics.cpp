// LLM metrics from a hand-made result: tokens/s, TTFT, TPOT, MBU, MFU, class times, gaps.
#include <doctest/doctest.h>

#include "run/metrics/llm_metrics.h"

using namespace hwsim;

namespace {
WorkRecord kernel(const char* name, const char* op_class, double start, double end, double flops, double bytes) {
  WorkRecord k;
  k.name = name, k.op_class = op_class, k.start = start, k.end = end;
  static const auto schema = std::make_shared<const RecordSchema>(RecordSchema{{"hbm"}, {}});
  k.flops = flops, k.min_bytes = bytes, k.schema = schema, k.traffic = {bytes};
  k.peak_flop_rate = 1e15, k.peak_memory_bandwidth = 1e12;
  return k;
}
}  // namespace

TEST_CASE("llm metrics: tokens per second and TTFT and TPOT and MBU and MFU and time by class") {
  Workload w;
  w.steps.push_back(WorkloadStep{"prefill", {}, 4, "prefill"});
  w.steps.push_back(WorkloadStep{"decode@9", {}, 4, "decode"});
  w.steps.push_back(WorkloadStep{"decode@10", {}, 4, "decode"});
  RunResult r;
  r.steps.push_back({"prefill", {kernel("L0.qkv_proj", "gemm", 0, 8e-3, 4e12, 1e9)}, 10e-3});
  r.steps.push_back({"decode@9", {kernel("L0.attention", "attention", 0, 2e-3, 1e9, 1e9)}, 2e-3});
  r.steps.push_back({"decode@10", {kernel("L0.attn_norm", "norm", 0, 3e-3, 1e6, 1e9)}, 4e-3});
  finalize(r);

  LlmMetrics m = compute_llm_metrics(w, r);
  REQUIRE(m.present);
  CHECK(m.tokens == 12);
  CHECK(m.tokens_per_second == doctest::Approx(12 / 16e-3));
  CHECK(m.ttft == doctest::Approx(10e-3));
  CHECK(m.tpot == doctest::Approx((2e-3 + 4e-3) / 2));
  CHECK(m.decode_tokens_per_second == doctest::Approx(8 / 6e-3));
  CHECK(m.mbu == doctest::Approx((3e9 / 16e-3) / 1e12));
  CHECK(m.mfu == doctest::Approx(((4e12 + 1e9 + 1e6) / 16e-3) / 1e15));
  CHECK(m.by_class.at("gemm").seconds == doctest::Approx(8e-3));
  CHECK(m.by_class.at("gemm").roofline_floor == doctest::Approx(4e-3));  // 4e12 / 1e15
  CHECK(m.by_class.at("launch_gaps").seconds == doctest::Approx(2e-3 + 1e-3));
  REQUIRE(m.farthest_from_floor.size() == 3);
  CHECK(m.farthest_from_floor[0].name == "L0.qkv_proj");  // 8 ms for a 4 ms floor
  CHECK(m.farthest_from_floor[0].ratio == doctest::Approx(2.0));
  CHECK(m.steps[1].mbu == doctest::Approx((1e9 / 2e-3) / 1e12));

  Workload gemm;
  gemm.steps.push_back(WorkloadStep{"gemm", {}});
  CHECK_FALSE(compute_llm_metrics(gemm, r).present);
}
