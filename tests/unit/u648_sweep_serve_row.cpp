// A serve run's sweep row: the run's duration and serving figures; the step figures (rate, energy,
// power) cover each distinct pass shape once, not the run, so they are left empty.
#include <doctest/doctest.h>

#include "app/sweep/sweep_row.h"

using namespace hwsim;

TEST_CASE("sweep row: a serve run reports its duration and serving figures, no step-only energy or power") {
  RunResult r;
  r.seconds = 0.7, r.energy = 393.0, r.average_power = 545.0, r.achieved_flop_rate = 4e14;
  r.serving.present = true;
  r.serving.duration_s = 13.8;
  r.serving.output_tokens_per_s = 1851.0;
  r.serving.ttft_s.mean = 0.08, r.serving.tpot_s.mean = 0.01;
  auto m = run_metrics(r);
  CHECK(m["seconds"].get<double>() == 13.8);
  CHECK(m["tokens_per_second"].get<double>() == 1851.0);
  CHECK(m["ttft"].get<double>() == 0.08);
  CHECK(m["energy"].is_null());
  CHECK(m["average_power"].is_null());
  CHECK(m["achieved_flop_rate"].is_null());

  RunResult plain;  // any other run keeps its figures
  plain.seconds = 2.0, plain.energy = 5.0;
  CHECK(run_metrics(plain)["energy"].get<double>() == 5.0);
}
