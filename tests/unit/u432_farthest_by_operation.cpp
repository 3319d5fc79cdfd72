// "Farthest from roofline floor" lists operations, not the same operation once per layer: ten
// layers' gate_up are one entry, by the layer farthest from its floor, with their count.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include "run/metrics/llm_metrics.h"

using namespace hwsim;

namespace {
WorkRecord kernel(const std::string& name, double start, double end, double flops) {
  WorkRecord k;
  k.name = name, k.op_class = "gemm", k.start = start, k.end = end;
  static const auto schema = std::make_shared<const RecordSchema>(RecordSchema{{"hbm"}, {}});
  k.flops = flops, k.min_bytes = 1e6, k.schema = schema, k.traffic = {1e6};
  k.peak_flop_rate = 1e15, k.peak_memory_bandwidth = 1e12;
  return k;
}
}  // namespace

TEST_CASE("llm metrics: farthest from the floor groups a layer's operations") {
  Workload w;
  w.steps.push_back(WorkloadStep{"decode@1", {}, 1, "decode"});
  RunResult r;
  StepResult step{"decode@1", {}, 0};
  double t = 0;
  for (int layer = 0; layer < 10; ++layer) {  // gate_up: 2 ms for a 1 ms floor; layer 7 3 ms
    double d = layer == 7 ? 3e-3 : 2e-3;
    step.records.push_back(kernel(fmt::format("L{}.gate_up", layer), t, t + d, 1e12)), t += d;
    step.records.push_back(kernel(fmt::format("L{}.down", layer), t, t + 1.2e-3, 1e12)), t += 1.2e-3;
  }
  step.seconds = t;
  r.steps.push_back(step);
  finalize(r);
  LlmMetrics m = compute_llm_metrics(w, r);
  REQUIRE(m.farthest_from_floor.size() == 2);  // two operations, not twenty records
  CHECK(m.farthest_from_floor[0].operation == "gate_up");
  CHECK(m.farthest_from_floor[0].name == "L7.gate_up");  // its record farthest from the floor
  CHECK(m.farthest_from_floor[0].records == 10);
  CHECK(m.farthest_from_floor[0].ratio == doctest::Approx(3.0));  // 3 ms / (1e12 FLOP / 1e15 FLOP/s)
  CHECK(m.farthest_from_floor[1].operation == "down");
  CHECK(m.farthest_from_floor[1].records == 10);
}
