// stage_fit_advice: one line per pipeline stage with what one device needs and has, and when it
// does not fit, the largest batch that would (or that the stage's weights alone do not fit).
#include <doctest/doctest.h>

#include "workloads/llm/capacity.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("llm parallel: stage fit advice names the stage, the bytes and the largest batch") {
  const std::string base = "decode:model=llama3_70b,context=4095,tp=2,pp=2,microbatches=2,batch=";
  Workload w = WorkloadCatalog::build(base + "64");
  REQUIRE(w.stage_footprint.size() == 2);
  std::string fits = stage_fit_advice(w, 1, 200e9);
  CHECK(has(fits, "llama3_70b decode batch 64"));
  CHECK(has(fits, "tp=2 pp=2 ep=1 dp=1 microbatches=2: stage 1 of 2 needs"));
  CHECK(has(fits, "per device (weights"));
  CHECK(fits.ends_with(": fits"));
  CHECK(fits.find('\n') == std::string::npos);

  // ~35 GB of weights per device: 30 GB is too little for the weights alone.
  CHECK(has(stage_fit_advice(w, 0, 30e9), "the stage's weights alone do not fit"));

  // 45 GB: the weights fit, 64 sequences do not; the advised batch fits and 2 more would not.
  const double capacity = 45e9;
  std::string advice = stage_fit_advice(w, 0, capacity);
  CHECK(has(advice, "stage 0 of 2"));
  auto at = advice.find("largest batch at 4096 positions: ");
  REQUIRE(at != std::string::npos);
  std::int64_t largest = std::stoll(advice.substr(at + std::string("largest batch at 4096 positions: ").size()));
  CHECK(largest % 2 == 0);
  CHECK(largest > 0);
  CHECK(largest < 64);
  CHECK(WorkloadCatalog::build(base + std::to_string(largest)).stage_footprint[0].total() <= capacity);
  CHECK(WorkloadCatalog::build(base + std::to_string(largest + 2)).stage_footprint[0].total() > capacity);

  CHECK(stage_fit_advice(w, 2, capacity).empty());
  CHECK(stage_fit_advice(WorkloadCatalog::build("decode_llama8b"), 0, capacity).empty());
}
