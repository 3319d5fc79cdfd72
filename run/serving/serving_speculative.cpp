#include "run/serving/serving_speculative.h"

#include <cmath>

namespace hwsim {

namespace {
// splitmix64's finaliser (Steele, Lea, Flood 2014): a bijection whose output bits each depend on
// every input bit.
std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace

double acceptance_uniform(std::uint64_t seed, std::int64_t id, std::int64_t round, std::int64_t trial) {
  std::uint64_t z = mix(seed);
  z = mix(z ^ std::uint64_t(id));
  z = mix(z ^ std::uint64_t(round));
  z = mix(z ^ std::uint64_t(trial));
  return double(z >> 11) * 0x1.0p-53;
}

std::int64_t accepted_draft_tokens(std::uint64_t seed, std::int64_t id, std::int64_t round, std::int64_t k,
                                   double accept) {
  std::int64_t n = 0;
  while (n < k && acceptance_uniform(seed, id, round, n) < accept) ++n;
  return n;
}

double expected_tokens_per_step(std::int64_t k, double accept) {
  if (accept >= 1) return double(k + 1);
  return (1 - std::pow(accept, double(k + 1))) / (1 - accept);
}

}  // namespace hwsim
