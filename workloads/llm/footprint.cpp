#include "workloads/llm/footprint.h"

#include <algorithm>

#include "workloads/llm/parallel_layout.h"

namespace hwsim {

namespace {

double weight_bytes(const ModelArchitecture& m, const LlmDtypes& d) {
  const double h = double(m.hidden), a = bytes_per_element(d.act), w = bytes_per_element(d.weights);
  const double norm_params = m.norm == "rmsnorm" ? h : 2 * h;  // γ (and β)
  // MLA's bottleneck norms (q_a, kv_a) beside the two per layer.
  const double mla_norms = m.is_mla() ? double(m.q_lora_rank + m.kv_lora_rank) : 0;
  double layers = 0;
  for (std::int64_t i = 0; i < m.layers; ++i)
    layers += (m.attention_weights() + m.ffn_weights(i)) * w + (2 * norm_params + mla_norms) * a;
  double embedding = double(m.vocab) * h * a;
  if (m.position == "learned") embedding += double(m.max_context) * h * a;
  double head = m.tied_embeddings ? 0 : double(m.vocab) * h * w;
  return embedding + layers + norm_params * a + head;
}

// Matrix weights (attention, FFN, an untied head) stored weight-only: narrower than the activations.
double quantised_weights(const ModelArchitecture& m, const LlmDtypes& d) {
  if (bytes_per_element(d.weights) >= bytes_per_element(d.act)) return 0;
  double layers = 0;
  for (std::int64_t i = 0; i < m.layers; ++i) layers += m.attention_weights() + m.ffn_weights(i);
  return layers + (m.tied_embeddings ? 0 : double(m.vocab) * double(m.hidden));
}

// Widest input + output of any op of a layer, in elements per new token (MoE FFN rows: top_k per token).
double widest_op_elements(const ModelArchitecture& m) {
  const double h = double(m.hidden), qkv = double((m.heads + 2 * m.kv_heads) * m.head_dim);
  const double attn_out = double(m.heads * m.head_dim), f = double(m.ffn), routed = double(m.top_k);
  const double up = (m.gated ? 2 : 1) * f;
  return std::max({h + qkv, qkv + attn_out, attn_out + h, routed * (h + up), routed * (up + f), routed * (f + h)});
}

// The same, for one tensor-parallel rank (q/kv heads, attention output and ffn divided by tp).
double widest_op_elements(const ModelArchitecture& m, std::int64_t tp) {
  const double h = double(m.hidden), qkv = double((m.heads / tp + 2 * (m.kv_heads / tp)) * m.head_dim);
  const double attn_out = double(m.heads / tp * m.head_dim), f = double(m.ffn / tp), routed = double(m.top_k);
  const double up = (m.gated ? 2 : 1) * f;
  return std::max({h + qkv, qkv + attn_out, attn_out + h, routed * (h + up), routed * (up + f), routed * (f + h)});
}

std::int64_t final_context(const LlmRun& run) {
  return run.phase == "decode" ? run.context + 1 : run.prompt + run.output;
}

}  // namespace

std::vector<DeviceFootprint> stage_footprints(const LlmRun& run) {
  const ModelArchitecture& m = run.arch;
  const Parallelism& p = run.parallel;
  const double h = double(m.hidden), a = bytes_per_element(run.dtypes.act), w = bytes_per_element(run.dtypes.weights);
  const double kv = bytes_per_element(run.dtypes.kv);
  const std::int64_t heads = m.heads / p.tp, kv_heads = m.kv_heads / p.tp, ffn = m.ffn / p.tp;
  const double vocab_shard = double(padded_vocab(m.vocab, p.tp) / p.tp);
  const double norm_params = m.norm == "rmsnorm" ? h : 2 * h;

  const double attn = double((heads + 2 * kv_heads) * m.head_dim) * h + double(heads * m.head_dim) * h;
  const double ffn_weights = double(m.experts / p.ep) * (m.gated ? 3 : 2) * h * double(ffn);
  const double router = m.is_moe() ? double(m.experts) * h : 0;
  const double per_layer = (attn + ffn_weights + router) * w + 2 * norm_params * a;
  const bool weight_only = w < a;  // its matrices' scales are the device's (DeviceInfo::weight_scale_bytes)
  double embedding = vocab_shard * h * a;
  if (m.position == "learned") embedding += double(m.max_context) * h * a;
  const double head = m.tied_embeddings ? (p.pp > 1 ? vocab_shard * h * a : 0) : vocab_shard * h * w;

  const std::int64_t context = final_context(run);
  const std::int64_t kept = m.window > 0 ? std::min(context, m.window) : context;
  const double kv_per_layer = double(device_sequences(run.batch, p)) * double(kept) * 2 *
                              double(kv_heads * m.head_dim) * kv;
  const double mb_sequences = double(microbatch_sequences(run.batch, p));
  const double step_tokens = double(run.phase == "decode" ? 1 : run.prompt);

  std::vector<DeviceFootprint> out;
  std::vector<StageLayers> stages = stage_layers(m.layers, p.pp);
  for (std::size_t s = 0; s < stages.size(); ++s) {
    bool first = s == 0, last = s + 1 == stages.size();
    DeviceFootprint f;
    f.weights = double(stages[s].count) * per_layer + (first ? embedding : 0) + (last ? norm_params * a + head : 0);
    if (weight_only)
      f.quantised_weights = double(stages[s].count) * (attn + ffn_weights + router) +
                            (last && !m.tied_embeddings ? vocab_shard * h : 0);
    f.kv_cache = double(stages[s].count) * kv_per_layer;
    f.activations = step_activation_bytes(m, run.dtypes, p.tp, mb_sequences * step_tokens, last ? mb_sequences : 0);
    out.push_back(f);
  }
  return out;
}

double step_activation_bytes(const ModelArchitecture& m, const LlmDtypes& dtypes, std::int64_t tp, double tokens,
                             double sequences) {
  const double h = double(m.hidden), a = bytes_per_element(dtypes.act);
  return tokens * (h + widest_op_elements(m, tp)) * a + sequences * (h + double(padded_vocab(m.vocab, tp))) * a;
}

LlmFacts llm_facts(const LlmRun& run) {
  const ModelArchitecture& m = run.arch;
  const double a = bytes_per_element(run.dtypes.act);
  LlmFacts f;
  f.model = m.name;
  f.phase = run.phase;
  f.batch = run.batch;
  f.context = final_context(run);
  f.step_tokens = run.phase == "decode" ? 1 : run.prompt;
  f.max_context = m.max_context;
  f.window = m.window;
  f.weight_bytes = weight_bytes(m, run.dtypes);
  f.quantised_weights = quantised_weights(m, run.dtypes);
  f.weights_dtype = run.dtypes.weights;
  f.kv_bytes_per_token = double(m.layers) * double(m.kv_elements_per_layer()) * bytes_per_element(run.dtypes.kv);
  std::int64_t kept = m.window > 0 ? std::min(f.context, m.window) : f.context;
  f.kv_bytes = double(f.batch) * double(kept) * f.kv_bytes_per_token;
  f.activation_bytes_per_token = (double(m.hidden) + widest_op_elements(m)) * a;
  f.activation_bytes_per_sequence = double(m.hidden + m.vocab) * a;
  f.activation_bytes = double(f.batch) * (double(f.step_tokens) * f.activation_bytes_per_token +
                                          f.activation_bytes_per_sequence);
  return f;
}

}  // namespace hwsim
