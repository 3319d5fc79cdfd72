#pragma once
// The paged KV-cache pool of one serving instance, sized as vLLM sizes it at start-up ("KV cache
// capacity: N tokens") on each of its tp devices: device memory × gpu_memory_utilization − the
// device's weights − its activation peak, cut into blocks of `block` tokens. Activation peak: the
// largest step's live activations (workloads/llm/footprint.h) at max_tokens_per_step tokens over
// max_batch sequences. With a draft model (speculative decoding) both models' weights are loaded
// and every block holds both models' KV for its positions, as vLLM splits the cache blocks between
// scorer and proposer; the activation peak is the larger of the two models'.
#include <cstdint>
#include <string>

#include "workloads/serve/serve_spec.h"

namespace hwsim {

struct KvPool {
  double device_bytes = 0, weight_bytes = 0, activation_peak_bytes = 0, pool_bytes = 0;  // per device
  double bytes_per_token = 0;        // K and V of one position on one device: every layer, its heads, both models
  double draft_bytes_per_token = 0;  // the draft's part of it (0 without speculation)
  double draft_weight_bytes = 0;     // the draft's part of weight_bytes
  std::int64_t tp = 1;               // devices the instance's heads are split over
  // Copies a block takes to move (swap): one per layer for K and one for V, each model's, as vLLM's
  // swap_blocks issues one cudaMemcpyAsync per block, layer and K/V tensor.
  std::int64_t copies_per_block = 0;
  std::int64_t block = 16, blocks = 0;
  std::int64_t tokens() const { return blocks * block; }
  std::int64_t blocks_for(std::int64_t tokens) const { return (tokens + block - 1) / block; }
  // Bytes of `blocks` blocks on one device (what one device swaps or sends for them).
  double block_bytes(std::int64_t blocks) const { return double(blocks * block) * bytes_per_token; }
};

// The pool of an instance of `tp` devices of `device_bytes` each. Throws UserError(workload) when the
// weights and activations leave no pool, or the pool cannot hold the longest request (prompt +
// output, + k lookahead positions with speculation) on its own.
KvPool size_kv_pool(const ServeSpec& spec, std::int64_t tp, double device_bytes, const std::string& device_name);

}  // namespace hwsim
