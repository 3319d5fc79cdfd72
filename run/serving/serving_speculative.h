#pragma once
// The acceptance arithmetic of speculative decoding (docs/serving.md). Each verification step a
// sequence's k draft tokens are checked in order; each is accepted with probability `accept`,
// independently, until the first rejection; the target then adds one token of its own (the
// correction, or the bonus token when all k were accepted). A step therefore yields n + 1 tokens
// for n accepted, and E[n + 1] = (1 − a^(k+1)) / (1 − a) (Leviathan et al. 2023, eq. 1).
//
// Draws are reproducible and independent of the schedule: the i-th trial of verification `round`
// of request `id` is the uniform of splitmix64 over (seed, id, round, i), so the same request sees
// the same acceptances whatever batch it runs in.
#include <cstdint>

namespace hwsim {

// A uniform in [0, 1) (53 bits) from the four keys.
double acceptance_uniform(std::uint64_t seed, std::int64_t id, std::int64_t round, std::int64_t trial);

// Draft tokens accepted (0..k) in one verification.
std::int64_t accepted_draft_tokens(std::uint64_t seed, std::int64_t id, std::int64_t round, std::int64_t k,
                                   double accept);

// (1 − a^(k+1)) / (1 − a): the expected tokens a sequence gains per verification step (k + 1 at a = 1).
double expected_tokens_per_step(std::int64_t k, double accept);

}  // namespace hwsim
