// Under MPI every rank runs the points whose index % ranks is its rank, less those already done.
#include <doctest/doctest.h>

#include "app/sweep/sweep_run.h"

using hwsim::points_of_rank;

TEST_CASE("sweep ranks: points are dealt round-robin and every point is run once") {
  std::map<std::size_t, std::string> none;
  CHECK(points_of_rank(7, none, 0, 2) == std::vector<std::size_t>{0, 2, 4, 6});
  CHECK(points_of_rank(7, none, 1, 2) == std::vector<std::size_t>{1, 3, 5});
  CHECK(points_of_rank(2, none, 2, 3).empty());
  std::map<std::size_t, std::string> done = {{2, "row\n"}, {3, "row\n"}};
  CHECK(points_of_rank(7, done, 0, 2) == std::vector<std::size_t>{0, 4, 6});
  CHECK(points_of_rank(5, none, 0, 1) == std::vector<std::size_t>{0, 1, 2, 3, 4});
}
