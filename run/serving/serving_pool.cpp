#include "run/serving/serving_pool.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sim/error.h"
#include "sim/units.h"
#include "workloads/llm/footprint.h"

namespace hwsim {

namespace {

// One device's share of a model under tp: weights, KV bytes per position and the activation peak.
struct RankShare {
  double weights = 0, kv_per_token = 0, activations = 0;
};

RankShare rank_share(const ModelArchitecture& m, const ServeSpec& spec, std::int64_t tp) {
  LlmRun run;
  run.arch = m;
  run.phase = "prefill";
  run.batch = 1;
  run.prompt = 1;
  run.dtypes = spec.dtypes;
  run.parallel.tp = tp;
  RankShare r;
  r.weights = stage_footprints(run).front().weights;
  r.kv_per_token = double(m.layers) * 2 * double(m.kv_heads / tp * m.head_dim) * bytes_per_element(spec.dtypes.kv);
  r.activations = step_activation_bytes(m, spec.dtypes, tp, double(spec.max_tokens_per_step), double(spec.max_batch));
  return r;
}

}  // namespace

KvPool size_kv_pool(const ServeSpec& spec, std::int64_t tp, double device_bytes, const std::string& device_name) {
  RankShare target = rank_share(spec.arch, spec, tp);
  RankShare draft;
  if (spec.speculative.on()) draft = rank_share(spec.speculative.draft, spec, tp);
  KvPool p;
  p.tp = tp;
  p.device_bytes = device_bytes;
  p.draft_weight_bytes = draft.weights;
  p.weight_bytes = target.weights + draft.weights;
  p.activation_peak_bytes = std::max(target.activations, draft.activations);
  p.draft_bytes_per_token = draft.kv_per_token;
  p.bytes_per_token = target.kv_per_token + draft.kv_per_token;
  p.copies_per_block = 2 * (spec.arch.layers + (spec.speculative.on() ? spec.speculative.draft.layers : 0));
  p.block = spec.block;
  p.pool_bytes = device_bytes * spec.gpu_memory_utilization - p.weight_bytes - p.activation_peak_bytes;
  p.blocks = p.pool_bytes > 0 ? std::int64_t(std::floor(p.pool_bytes / (double(p.block) * p.bytes_per_token))) : 0;
  if (spec.kv_blocks > p.blocks)
    workload_error(fmt::format("serve: kv_blocks={} does not fit {}: {} × {} − weights {} − activations {} holds {} "
                               "blocks of {} tokens", spec.kv_blocks, device_name,
                               format_quantity(device_bytes, Dimension::bytes), spec.gpu_memory_utilization,
                               format_quantity(p.weight_bytes, Dimension::bytes),
                               format_quantity(p.activation_peak_bytes, Dimension::bytes), p.blocks, p.block));
  if (spec.kv_blocks > 0) p.blocks = spec.kv_blocks, p.pool_bytes = p.block_bytes(p.blocks);
  std::int64_t longest = 0, lookahead = spec.speculative.on() ? spec.speculative.k : 0;
  for (const auto& r : spec.requests) longest = std::max(longest, r.prompt + r.output + lookahead);
  if (p.blocks_for(longest) > p.blocks)
    workload_error(fmt::format(
        "serve: the KV pool on {} holds {} tokens ({} blocks of {}: {} × {} − weights {} − activations {}), less "
        "than the longest request's {} tokens (raise gpu_memory_utilization, lower max_tokens_per_step or "
        "max_batch, use smaller weights/kv dtypes{})",
        device_name, p.tokens(), p.blocks, p.block, format_quantity(device_bytes, Dimension::bytes),
        spec.gpu_memory_utilization, format_quantity(p.weight_bytes, Dimension::bytes),
        format_quantity(p.activation_peak_bytes, Dimension::bytes), longest,
        tp > 1 ? "" : ", or tp= on a system"));
  return p;
}

}  // namespace hwsim
