// Serving request draws: our own transforms on mt19937_64's raw output, reproducible by seed.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "workloads/serve/serve_spec.h"
#include "workloads/spec.h"
#include "sim/error.h"

using namespace hwsim;

TEST_CASE("serve sampling: transforms on the raw 64-bit output") {
  std::mt19937_64 raw(7);
  ServeRandom rng(7);
  std::uint64_t x = raw();
  CHECK(rng.uniform() == double(x >> 11) * 0x1.0p-53);
  x = raw();
  CHECK(rng.exponential(4.0) == -std::log(1.0 - double(x >> 11) * 0x1.0p-53) / 4.0);
  x = raw();
  double u = double(x >> 11) * 0x1.0p-53;
  CHECK(rng.uniform_int(64, 512) == 64 + std::int64_t(u * 449.0));
}

TEST_CASE("serve sampling: the same seed draws the same requests, another seed others") {
  auto draw = [](const char* seed) {
    return parse_serve_spec(WorkloadSpec::parse(std::string("serve:model=llama3_8b,requests=20,rate=5,prompt=uniform:"
                                                            "64..512,output=normal:200/50/10..400,seed=") + seed)).requests;
  };
  auto a = draw("3"), b = draw("3"), c = draw("4");
  REQUIRE(a.size() == 20);
  bool differs = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].arrival == b[i].arrival);
    CHECK(a[i].prompt == b[i].prompt);
    CHECK(a[i].output == b[i].output);
    CHECK(a[i].prompt >= 64);
    CHECK(a[i].prompt <= 512);
    CHECK(a[i].output >= 10);
    CHECK(a[i].output <= 400);
    if (i > 0) CHECK(a[i].arrival > a[i - 1].arrival);
    differs = differs || a[i].prompt != c[i].prompt;
  }
  CHECK(differs);
}

TEST_CASE("serve sampling: rate=inf puts every arrival at 0 and fixed lengths are exact") {
  auto r = parse_serve_spec(WorkloadSpec::parse("serve:model=llama3_8b,requests=4,rate=inf,prompt=100,output=7")).requests;
  REQUIRE(r.size() == 4);
  for (const auto& q : r) CHECK((q.arrival == 0 && q.prompt == 100 && q.output == 7));
}
