// Speculative decoding's acceptance arithmetic. With per-token acceptance a, k drafts and the
// target's own token, a verification yields n + 1 tokens for n accepted, where n counts the drafts
// accepted before the first rejection: P(n = j) = a^j (1 − a) for j < k, P(n = k) = a^k. Its mean
// Σ_j P(n = j)(j + 1) equals (1 − a^(k+1)) / (1 − a): for a = 0.6, k = 4: (1 − 0.07776) / 0.4 =
// 2.3056. The draws follow that distribution, are reproducible, and depend only on (seed,
// request, round), not on which step or batch a request runs in.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "run/serving/serving_speculative.h"

using namespace hwsim;

TEST_CASE("serve speculative: the expected tokens per step, by hand") {
  CHECK(expected_tokens_per_step(4, 0.6) == doctest::Approx(2.3056).epsilon(1e-12));
  CHECK(expected_tokens_per_step(1, 0.5) == doctest::Approx(1.5).epsilon(1e-12));  // 1 + 0.5
  CHECK(expected_tokens_per_step(3, 1.0) == 4);                                     // every draft accepted
  CHECK(expected_tokens_per_step(5, 0.1) == doctest::Approx(1.11111).epsilon(1e-5));  // 1 + .1 + .01 + ...
}

TEST_CASE("serve speculative: the draws follow the truncated geometric distribution") {
  const std::int64_t k = 4, draws = 200000;
  const double a = 0.6;
  std::vector<double> p(k + 1);
  for (std::int64_t j = 0; j < k; ++j) p[std::size_t(j)] = std::pow(a, double(j)) * (1 - a);
  p[std::size_t(k)] = std::pow(a, double(k));
  double mean = 0, second = 0;
  for (std::int64_t j = 0; j <= k; ++j) mean += p[std::size_t(j)] * double(j + 1), second += p[std::size_t(j)] * double((j + 1) * (j + 1));
  CHECK(mean == doctest::Approx(2.3056).epsilon(1e-12));  // the distribution by hand agrees with the formula
  const double sd = std::sqrt(second - mean * mean);
  std::vector<std::int64_t> count(k + 1, 0);
  double sum = 0;
  for (std::int64_t i = 0; i < draws; ++i) {
    std::int64_t n = accepted_draft_tokens(7, i % 1000, i / 1000, k, a);
    REQUIRE(n >= 0);
    REQUIRE(n <= k);
    count[std::size_t(n)] += 1, sum += double(n + 1);
  }
  CHECK(std::abs(sum / double(draws) - mean) < 5 * sd / std::sqrt(double(draws)));
  for (std::int64_t j = 0; j <= k; ++j) {
    double q = p[std::size_t(j)], share = double(count[std::size_t(j)]) / double(draws);
    CHECK(std::abs(share - q) < 5 * std::sqrt(q * (1 - q) / double(draws)));
  }
}

TEST_CASE("serve speculative: draws are reproducible and keyed by seed, request and round only") {
  CHECK(accepted_draft_tokens(3, 17, 5, 4, 0.6) == accepted_draft_tokens(3, 17, 5, 4, 0.6));
  CHECK(accepted_draft_tokens(3, 17, 5, 4, 1.0) == 4);       // a = 1: every draft accepted
  CHECK(accepted_draft_tokens(3, 17, 5, 4, 1e-12) == 0);     // a ~ 0: none
  int differ = 0;  // another seed, request or round: other uniforms
  for (std::int64_t r = 0; r < 64; ++r) {
    differ += acceptance_uniform(3, 17, r, 0) != acceptance_uniform(4, 17, r, 0);
    differ += acceptance_uniform(3, 17, r, 0) != acceptance_uniform(3, 18, r, 0);
    differ += acceptance_uniform(3, 17, r, 0) != acceptance_uniform(3, 17, r + 1, 0);
  }
  CHECK(differ == 3 * 64);
}
