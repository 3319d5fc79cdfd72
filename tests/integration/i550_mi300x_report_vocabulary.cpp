// The report of an AMD chip speaks AMD: compute units (CUs), workgroups, dispatch rounds, the
// Infinity Cache level (MALL); no SM or CTA. An NVIDIA chip's report keeps its words.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli mi300x: the text report says CUs, workgroups and MALL, not SMs or CTAs") {
  CliRun r = run_hwsim("--chip mi300x -w gemm:M=1024,N=1024,K=1024");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "averaged over CUs"));
  CHECK(contains(r.out, "workgroups"));
  CHECK(contains(r.out, "dispatch_rounds"));
  CHECK(contains(r.out, "WG/CU"));
  CHECK(contains(r.out, "MALL traffic"));
  CHECK_FALSE(contains(r.out, "SM"));
  CHECK_FALSE(contains(r.out, "CTA"));
  CHECK_FALSE(contains(r.out, "ctas"));

  CliRun s = run_hwsim("--chip mi300x -w elementwise:op=add,T=4096,D=4096");
  REQUIRE(s.exit_code == 0);
  CHECK(contains(s.out, "workgroups x 256 threads"));
  CHECK_FALSE(contains(s.out, "CTA"));
}

TEST_CASE("cli h100: the text report keeps SMs and CTAs, and has no MALL level") {
  CliRun r = run_hwsim("--chip h100 -w gemm:M=1024,N=1024,K=1024");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "averaged over SMs"));
  CHECK(contains(r.out, "ctas"));
  CHECK(contains(r.out, "CTA/SM"));
  CHECK_FALSE(contains(r.out, "MALL"));
}
