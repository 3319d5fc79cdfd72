#pragma once
// The paged KV-cache pool of a serving run, sized as vLLM sizes it at start-up ("KV cache
// capacity: N tokens"): device memory × gpu_memory_utilization − weights − activation peak, cut
// into blocks of `block` tokens. Activation peak: the largest step's live activations
// (workloads/llm/footprint.h) at max_tokens_per_step tokens over max_batch sequences.
#include <cstdint>

#include "workloads/serve/serve_spec.h"

namespace hwsim {

struct KvPool {
  double device_bytes = 0, weight_bytes = 0, activation_peak_bytes = 0, pool_bytes = 0;
  double bytes_per_token = 0;   // K and V of one position, every layer
  std::int64_t block = 16, blocks = 0;
  std::int64_t tokens() const { return blocks * block; }
  std::int64_t blocks_for(std::int64_t tokens) const { return (tokens + block - 1) / block; }
};

// Throws UserError(workload) when the weights and activations leave no pool, or the pool cannot
// hold the longest request (prompt + output) on its own.
KvPool size_kv_pool(const ServeSpec& spec, double device_bytes, const std::string& device_name);

}  // namespace hwsim
