// Latency percentiles interpolate linearly between order statistics, as numpy.percentile does.
#include <doctest/doctest.h>

#include "run/metrics/serving_metrics.h"

using namespace hwsim;

TEST_CASE("serve percentiles: numpy's linear interpolation") {
  LatencyStats s = latency_stats({4, 1, 3, 2});
  CHECK(s.mean == doctest::Approx(2.5));
  CHECK(s.p50 == doctest::Approx(2.5));   // position 1.5
  CHECK(s.p90 == doctest::Approx(3.7));   // position 2.7
  CHECK(s.p99 == doctest::Approx(3.97));  // position 2.97
  CHECK(s.count == 4);
  CHECK(latency_stats({}).p99 == 0);
  CHECK(latency_stats({5}).p90 == 5);
}
