// A serve run's sweep row: the run's duration and serving figures; the step figures (rate, energy,
// power) cover each distinct pass shape once, not the run, so they are left empty.
#include <doctest/doctest.h>

#include "app/sweep/sweep_row.h"

using namespace hwsim;

TEST_CASE("sweep row: a serve run reports the run's figures and its serving ones") {
  RunResult r;  // a serving run's result is the run's (its span, its energy): the row keeps them
  r.seconds = 13.8, r.energy = 9252.0, r.average_power = 670.0, r.achieved_flop_rate = 4e14;
  r.serving.present = true;
  r.serving.duration_s = 13.8;
  r.serving.output_tokens_per_s = 1851.0;
  r.serving.ttft_s.mean = 0.08, r.serving.tpot_s.mean = 0.01;
  r.serving.joules_per_output_token = 0.046;
  auto m = run_metrics(r);
  CHECK(m["seconds"].get<double>() == 13.8);
  CHECK(m["tokens_per_second"].get<double>() == 1851.0);
  CHECK(m["ttft"].get<double>() == 0.08);
  CHECK(m["energy"].get<double>() == 9252.0);
  CHECK(m["average_power"].get<double>() == 670.0);
  CHECK(m["joules_per_token"].get<double>() == 0.046);

  RunResult plain;  // any other run keeps its figures
  plain.seconds = 2.0, plain.energy = 5.0;
  CHECK(run_metrics(plain)["energy"].get<double>() == 5.0);
}
