#pragma once
// How many distinct experts a batch of routed tokens touches: the grouped expert GEMMs move one
// weight set per distinct expert, so this sets an MoE step's weight traffic.
#include <cstdint>

namespace hwsim {

// Expected number of distinct experts hit by `picks` independent, uniformly random choices among
// `experts` (picks = tokens · top_k; the top_k of one token are really distinct, which this
// ignores — a slight undercount at tiny batches):
//   E · (1 − (1 − 1/E)^picks), rounded to the nearest integer, at least 1 and at most E.
// E.g. Mixtral (E = 8, top_k = 2): 1 token → 1.88 → 2; 8 tokens → 7.06 → 7; 32 tokens → 8.
std::int64_t expected_distinct_experts(std::int64_t experts, std::int64_t picks);

}  // namespace hwsim
