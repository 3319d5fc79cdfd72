// The progress bar's text: done/total, rate and time left; silent when stderr is not a terminal.
#include <doctest/doctest.h>

#include "app/progress.h"

using hwsim::ProgressBar;

TEST_CASE("progress: bar, counts, rate and ETA") {
  std::string s = ProgressBar::render("sweep", 25, 100, "points", 5.0, 20);
  CHECK(s == "sweep [#####...............] 25/100 points  5.0/s  ETA 15s");
  CHECK(ProgressBar::render("generate", 0, 10, "steps", 0.0, 4) == "generate [....] 0/10 steps  0.0/s  ETA ?");
  CHECK(hwsim::format_duration(65) == "1m05s");
  CHECK(hwsim::format_duration(7380) == "2h03m");
}

TEST_CASE("progress: not shown when stderr is not a terminal (ctest's stderr is a file or pipe)") {
  ProgressBar bar("sweep", 10, "points");
  bar.update(5);
  CHECK_FALSE(bar.shown());
}
