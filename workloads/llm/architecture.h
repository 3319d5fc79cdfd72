#pragma once
// A transformer language model's shape, as read from workloads/llm/models/NAME.toml (one file per
// model, values from its Hugging Face config.json). Only shapes: no dtypes, no hardware.
#include <cstdint>
#include <string>
#include <vector>

namespace hwsim {

class WorkloadSpec;

struct ModelArchitecture {
  std::string name;            // file stem: "llama3_8b"
  std::int64_t layers = 0;
  std::int64_t hidden = 0;
  std::int64_t heads = 0;      // query heads
  std::int64_t kv_heads = 0;   // key/value heads (GQA when < heads; MHA when equal)
  std::int64_t head_dim = 0;
  std::int64_t ffn = 0;        // FFN inner size (per expert for MoE)
  std::string activation;      // "silu" | "gelu"
  bool gated = true;           // gated FFN: down(act(gate(x)) * up(x)); else down(act(up(x)))
  std::int64_t vocab = 0;
  std::string norm;            // "rmsnorm" | "layernorm"
  std::string position;        // "rope" | "learned"
  std::int64_t window = 0;     // sliding-window attention span in keys; 0 = full attention
  std::int64_t experts = 1;    // FFN experts per layer (1 = dense)
  std::int64_t top_k = 1;      // experts each token is routed to
  bool tied_embeddings = false;  // LM head shares the token-embedding matrix
  // The attention and FFN linear layers add a bias vector (GPT-2; optional in the files, default
  // false). Inference fuses it into the GEMM's epilogue; training casts it and sums its gradient.
  bool linear_bias = false;
  std::int64_t max_context = 0;  // longest sequence (positions) the model supports
  // DeepSeek-V2/V3 style (optional in the files; 0 = absent):
  // Multi-head latent attention (MLA): K and V come from a compressed latent of kv_lora_rank values
  // per token, which (with rope_head_dim shared RoPE key values) is all the KV cache holds.
  // head_dim is the query/key head dim (nope + rope), v_head_dim the value head dim; queries go
  // through a q_lora_rank bottleneck when q_lora_rank > 0.
  std::int64_t kv_lora_rank = 0;
  std::int64_t q_lora_rank = 0;
  std::int64_t rope_head_dim = 0;
  std::int64_t v_head_dim = 0;
  // MoE with shared experts (every token also goes through shared_experts experts of ffn each), and
  // the first dense_layers layers dense with an FFN of dense_ffn.
  std::int64_t shared_experts = 0;
  std::int64_t dense_layers = 0;
  std::int64_t dense_ffn = 0;
  // The tokenizer family (file key `tokenizer`, optional; default: the model's own name): models of
  // one family share token ids, so one can draft for another (speculative decoding).
  std::string tokenizer;

  bool is_moe() const { return experts > 1; }
  bool is_mla() const { return kv_lora_rank > 0; }
  bool is_moe_layer(std::int64_t layer) const { return is_moe() && layer >= dense_layers; }
  // K and V values one token adds to one layer's cache (MLA: the latent and the RoPE key).
  std::int64_t kv_elements_per_layer() const { return is_mla() ? kv_lora_rank + rope_head_dim : 2 * kv_heads * head_dim; }
  // Linear-layer weights (elements) of one layer's attention and FFN (router included).
  double attention_weights() const;
  double ffn_weights(std::int64_t layer) const;
};

// Architecture field names, in file order (also the spec keys that override them).
const std::vector<std::string>& architecture_fields();

// Model names found in the models folder (sorted file stems).
std::vector<std::string> architecture_names();

// Folder holding the model files: $HWSIM_SOURCE_DIR/workloads/llm/models if it exists, else
// ./workloads/llm/models relative to the working directory.
std::string architecture_folder();

// Loads NAME.toml from the models folder, or the file NAME names when it has a '/' or ends in
// .toml (model=path/to/m.toml; the model's name is then the file's stem). Unknown model:
// UserError(workload) listing the known ones; an unreadable file: UserError(io); a malformed file,
// a missing, unknown or ill-typed key: UserError(workload) naming file:line:key.
ModelArchitecture load_architecture(const std::string& name);

// Applies every architecture field present in `spec` (layers=20, experts=16, activation=gelu, ...)
// and checks the result is consistent (heads divisible by kv_heads, top_k <= experts, ...);
// errors are UserError(workload) naming the spec and field.
ModelArchitecture with_overrides(ModelArchitecture arch, const WorkloadSpec& spec);

// The model a spec names (model=), loaded and with the spec's architecture fields applied; a
// missing or unknown model is one UserError(workload) line naming the spec.
ModelArchitecture spec_architecture(const WorkloadSpec& spec);

}  // namespace hwsim
