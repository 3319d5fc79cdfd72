#include "app/serving_pool.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sim/error.h"
#include "sim/units.h"
#include "workloads/llm/footprint.h"

namespace hwsim {

KvPool size_kv_pool(const ServeSpec& spec, double device_bytes, const std::string& device_name) {
  LlmRun run;
  run.arch = spec.arch;
  run.phase = "prefill";
  run.batch = 1;
  run.prompt = spec.max_tokens_per_step;
  run.dtypes = spec.dtypes;
  LlmFacts f = llm_facts(run);
  KvPool p;
  p.device_bytes = device_bytes;
  p.weight_bytes = f.weight_bytes;
  p.activation_peak_bytes = f.activation_bytes_per_token * double(spec.max_tokens_per_step) +
                            f.activation_bytes_per_sequence * double(spec.max_batch);
  p.bytes_per_token = f.kv_bytes_per_token;
  p.block = spec.block;
  p.pool_bytes = device_bytes * spec.gpu_memory_utilization - p.weight_bytes - p.activation_peak_bytes;
  p.blocks = p.pool_bytes > 0 ? std::int64_t(std::floor(p.pool_bytes / (double(p.block) * p.bytes_per_token))) : 0;
  std::int64_t longest = 0;
  for (const auto& r : spec.requests) longest = std::max(longest, r.prompt + r.output);
  if (p.blocks_for(longest) > p.blocks)
    workload_error(fmt::format(
        "serve: the KV pool on {} holds {} tokens ({} blocks of {}: {} × {} − weights {} − activations {}), less "
        "than the longest request's {} tokens (raise gpu_memory_utilization, lower max_tokens_per_step or "
        "max_batch, or use smaller weights/kv dtypes)",
        device_name, p.tokens(), p.blocks, p.block, format_quantity(device_bytes, Dimension::bytes),
        spec.gpu_memory_utilization, format_quantity(p.weight_bytes, Dimension::bytes),
        format_quantity(p.activation_peak_bytes, Dimension::bytes), longest));
  return p;
}

}  // namespace hwsim
