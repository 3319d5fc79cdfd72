#include "workloads/llm/footprint.h"

#include <algorithm>

namespace hwsim {

namespace {

double weight_bytes(const ModelArchitecture& m, const LlmDtypes& d) {
  const double h = double(m.hidden), a = bytes_per_element(d.act), w = bytes_per_element(d.weights);
  const double attn = double((m.heads + 2 * m.kv_heads) * m.head_dim) * h + double(m.heads * m.head_dim) * h;
  const double ffn = double(m.experts) * (m.gated ? 3 : 2) * h * double(m.ffn);
  const double router = m.is_moe() ? double(m.experts) * h : 0;
  const double norm_params = m.norm == "rmsnorm" ? h : 2 * h;  // γ (and β)
  double per_layer = (attn + ffn + router) * w + 2 * norm_params * a;
  double embedding = double(m.vocab) * h * a;
  if (m.position == "learned") embedding += double(m.max_context) * h * a;
  double head = m.tied_embeddings ? 0 : double(m.vocab) * h * w;
  return embedding + double(m.layers) * per_layer + norm_params * a + head;
}

// Widest input + output of any op of a layer, in elements per new token (MoE FFN rows: top_k per token).
double widest_op_elements(const ModelArchitecture& m) {
  const double h = double(m.hidden), qkv = double((m.heads + 2 * m.kv_heads) * m.head_dim);
  const double attn_out = double(m.heads * m.head_dim), f = double(m.ffn), routed = double(m.top_k);
  const double up = (m.gated ? 2 : 1) * f;
  return std::max({h + qkv, qkv + attn_out, attn_out + h, routed * (h + up), routed * (up + f), routed * (f + h)});
}

}  // namespace

LlmFacts llm_facts(const LlmRun& run) {
  const ModelArchitecture& m = run.arch;
  const double a = bytes_per_element(run.dtypes.act);
  LlmFacts f;
  f.model = m.name;
  f.phase = run.phase;
  f.batch = run.batch;
  f.context = run.phase == "decode" ? run.context + 1 : run.prompt + run.output;
  f.step_tokens = run.phase == "decode" ? 1 : run.prompt;
  f.max_context = m.max_context;
  f.window = m.window;
  f.weight_bytes = weight_bytes(m, run.dtypes);
  f.kv_bytes_per_token = double(m.layers) * 2 * double(m.kv_heads * m.head_dim) * bytes_per_element(run.dtypes.kv);
  std::int64_t kept = m.window > 0 ? std::min(f.context, m.window) : f.context;
  f.kv_bytes = double(f.batch) * double(kept) * f.kv_bytes_per_token;
  f.activation_bytes_per_token = (double(m.hidden) + widest_op_elements(m)) * a;
  f.activation_bytes_per_sequence = double(m.hidden + m.vocab) * a;
  f.activation_bytes = double(f.batch) * (double(f.step_tokens) * f.activation_bytes_per_token +
                                          f.activation_bytes_per_sequence);
  return f;
}

}  // namespace hwsim
