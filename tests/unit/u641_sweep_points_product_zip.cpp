// Sweep points: the cartesian product (last key fastest), --zip, and each point's spec.
#include <doctest/doctest.h>

#include "app/sweep/sweep_spec.h"
#include "sim/error.h"

using namespace hwsim;

static SweepSpec two_axes(bool zip) {
  SweepSpec s;
  s.chip = "h100";
  s.workload = "decode_llama8b:context=512";
  s.overrides = {"gpu.sm_count=100"};
  s.axes = {parse_vary("memory.hbm.bandwidth=1TB/s,2TB/s"), parse_vary("workload.batch=1,8")};
  s.zip = zip;
  return s;
}

TEST_CASE("sweep points: the product in order, the last key varying fastest") {
  auto p = sweep_points(two_axes(false));
  REQUIRE(p.size() == 4);
  CHECK(p[0].values == std::vector<std::string>{"1TB/s", "1"});
  CHECK(p[1].values == std::vector<std::string>{"1TB/s", "8"});
  CHECK(p[2].values == std::vector<std::string>{"2TB/s", "1"});
  CHECK(p[3].index == 3);
}

TEST_CASE("sweep points: --zip pairs the lists") {
  auto p = sweep_points(two_axes(true));
  REQUIRE(p.size() == 2);
  CHECK(p[1].values == std::vector<std::string>{"2TB/s", "8"});
  SweepSpec bad = two_axes(true);
  bad.axes[1] = parse_vary("workload.batch=1,8,16");
  CHECK_THROWS_WITH_AS(sweep_points(bad), doctest::Contains("has 3"), UserError);
}

TEST_CASE("sweep points: a point's workload spec and overrides") {
  SweepSpec s = two_axes(false);
  auto p = sweep_points(s);
  CHECK(point_workload(s, p[1]) == "decode_llama8b:batch=8,context=512");
  CHECK(point_overrides(s, p[1]) == std::vector<std::string>{"gpu.sm_count=100", "memory.hbm.bandwidth=1TB/s"});
  s.workload = "decode_llama8b:batch=4";
  CHECK(point_workload(s, p[2]) == "decode_llama8b:batch=1");  // the swept value replaces the spec's
}

TEST_CASE("sweep points: no axis, a key twice, no '=' are usage errors") {
  SweepSpec s = two_axes(false);
  s.axes.push_back(parse_vary("workload.batch=2"));
  CHECK_THROWS_WITH_AS(sweep_points(s), doctest::Contains("varied twice"), UserError);
  s.axes.clear();
  CHECK_THROWS_AS(sweep_points(s), UserError);
  CHECK_THROWS_WITH_AS(parse_vary("memory.hbm.bandwidth"), doctest::Contains("KEY=V1,V2"), UserError);
}
