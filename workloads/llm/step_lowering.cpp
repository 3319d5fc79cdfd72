#include "workloads/llm/step_lowering.h"

#include <fmt/format.h>

#include "workloads/llm/moe.h"

namespace hwsim {

namespace {

// Vector FLOPs per element, documented once: rmsnorm x², Σ, ·rsqrt, ·γ = 4; layernorm Σ, −mean,
// x², Σ, ·rsqrt, ·γ, +β = 7; RoPE x·cos + rotate(x)·sin = 3; SiLU·mul (x·sigmoid(x) as neg, exp,
// +1, ÷, then ·up) = 5; GELU (tanh approximation) = 8; add = 1.
constexpr double kRmsNormFlops = 4, kLayerNormFlops = 7, kRopeFlops = 3, kSiluMulFlops = 5, kGeluFlops = 8;

class StepBuilder {
 public:
  StepBuilder(const ModelArchitecture& arch, const LlmDtypes& dtypes, const LlmStepShape& shape)
      : m_(arch), d_(dtypes), s_(shape), T_(double(shape.tokens())),
        a_(bytes_per_element(dtypes.act)) {}

  OpGraph build() {
    OpVertex x = embed();
    for (std::int64_t i = 0; i < m_.layers; ++i) x = layer(i, x);
    OpVertex n = norm("final_norm", s_.tokens(), x);
    // The LM head runs on the last token of each sequence only (M = batch). Tied: it reads the
    // token-embedding matrix, stored in the activation dtype.
    GemmOp head = linear(s_.batch, m_.vocab, m_.hidden);
    if (m_.tied_embeddings) head.b = d_.act;
    add("lm_head", "gemm", head, {n});
    return std::move(g_);
  }

 private:
  OpVertex add(const std::string& name, const std::string& op_class, std::variant<GemmOp, StreamOp, AttentionOp> shape,
               const std::vector<OpVertex>& inputs, std::vector<OpPart> parts = {}) {
    Op op;
    op.name = name;
    op.op_class = op_class;
    op.shape = std::move(shape);
    op.parts = std::move(parts);
    return add_op(g_, std::move(op), inputs);
  }

  GemmOp linear(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t groups = 1) const {
    GemmOp op;
    op.m = m, op.n = n, op.k = k, op.groups = groups;
    op.a = d_.act, op.b = d_.weights, op.out = d_.act;
    return op;
  }

  static StreamOp stream(double read, double written, double flops, std::int64_t rows) {
    StreamOp op;
    op.bytes_read = read, op.bytes_written = written, op.flops = flops, op.rows = rows;
    return op;
  }

  // Token rows of the table in (learned positions: plus the position rows, added).
  OpVertex embed() {
    double h = double(m_.hidden);
    bool learned = m_.position == "learned";
    double read = T_ * h * a_ * (learned ? 2 : 1);
    return add("embed", "elementwise", stream(read, T_ * h * a_, learned ? T_ * h : 0, s_.tokens()), {});
  }

  // Reads rows·width activations and the γ (and β) weights, writes rows·width.
  OpVertex norm(const std::string& name, std::int64_t rows, OpVertex in) {
    double w = double(m_.hidden), r = double(rows);
    bool rms = m_.norm == "rmsnorm";
    double weights = (rms ? 1 : 2) * w * a_;
    double flops = (rms ? kRmsNormFlops : kLayerNormFlops) * r * w;
    return add(name, "norm", stream(r * w * a_ + weights, r * w * a_, flops, rows), {in});
  }

  OpVertex residual(const std::string& name, OpVertex skip, OpVertex branch) {
    double h = double(m_.hidden);
    return add(name, "elementwise", stream(2 * T_ * h * a_, T_ * h * a_, T_ * h, s_.tokens()), {skip, branch});
  }

  OpVertex layer(std::int64_t i, OpVertex x) {
    auto name = [&](const char* op) { return fmt::format("L{}.{}", i, op); };
    const double H = double(m_.heads), G = double(m_.kv_heads), D = double(m_.head_dim);
    const double kv = bytes_per_element(d_.kv);

    OpVertex n1 = norm(name("attn_norm"), s_.tokens(), x);
    OpVertex qkv = add(name("qkv_proj"), "gemm",
                       linear(s_.tokens(), (m_.heads + 2 * m_.kv_heads) * m_.head_dim, m_.hidden), {n1});
    OpVertex q_and_k = qkv;
    if (m_.position == "rope") {
      // Rotates q and k in place of a copy: reads them and the cos/sin tables ([T, head_dim] each).
      double qk = T_ * (H + G) * D * a_;
      q_and_k = add(name("rope"), "elementwise", stream(qk + 2 * T_ * D * a_, qk, kRopeFlops * T_ * (H + G) * D, s_.tokens()),
                    {qkv}, rope_parts(name("rope"), T_ * H * D * a_, T_ * G * D * a_));
    }
    // Writes the step's new K and V into the cache, converting to the kv dtype (its parts: one copy
    // each for K and V).
    double new_kv = T_ * 2 * G * D;
    std::vector<OpVertex> kv_inputs = {q_and_k};
    if (q_and_k != qkv) kv_inputs.push_back(qkv);
    StreamOp half = stream(new_kv / 2 * a_, new_kv / 2 * kv, 0, s_.tokens());
    std::vector<OpPart> copies = {{name("kv_append.k"), half, {composite_input(0)}},
                                  {name("kv_append.v"), half, {composite_input(int(kv_inputs.size()) - 1), 0}}};
    OpVertex append = add(name("kv_append"), "elementwise", stream(new_kv * a_, new_kv * kv, 0, s_.tokens()), kv_inputs,
                          std::move(copies));

    AttentionOp attn;
    attn.batch = s_.batch, attn.heads = m_.heads, attn.kv_heads = m_.kv_heads, attn.head_dim = m_.head_dim;
    attn.q_len = s_.q_len, attn.kv_len = s_.kv_len, attn.causal = true, attn.window = m_.window;
    attn.dtype = d_.act, attn.kv_dtype = d_.kv;
    OpVertex at = add(name("attention"), "attention", attn, {q_and_k, append});
    OpVertex o = add(name("o_proj"), "gemm", linear(s_.tokens(), m_.hidden, m_.heads * m_.head_dim), {at});
    OpVertex r1 = residual(name("attn_residual"), x, o);
    OpVertex n2 = norm(name("ffn_norm"), s_.tokens(), r1);
    OpVertex ffn_out = m_.is_moe() ? moe_ffn(i, n2) : dense_ffn(i, n2);
    return m_.is_moe() ? moe_residual(name("ffn_residual"), r1, ffn_out) : residual(name("ffn_residual"), r1, ffn_out);
  }

  // HF rotate_half RoPE as its torch ops, for q (q_bytes) then k (k_bytes): per tensor x2·(−1) on
  // the second half, cat(−x2, x1), x·cos, rotated·sin, and their sum — 5 ops, each a full pass
  // (the cos/sin tables are [T, head_dim], negligible next to q and k). All read the composite's
  // input (qkv).
  std::vector<OpPart> rope_parts(const std::string& prefix, double q_bytes, double k_bytes) const {
    std::vector<OpPart> parts;
    for (auto [tag, bytes] : {std::pair{"q", q_bytes}, std::pair{"k", k_bytes}}) {
      std::string p = prefix + "." + tag;
      std::int64_t rows = s_.tokens();
      double elements = bytes / a_;
      int first = int(parts.size());
      parts.push_back({p + ".neg", stream(bytes / 2, bytes / 2, elements / 2, rows), {composite_input(0)}});
      parts.push_back({p + ".cat", stream(bytes, bytes, 0, rows), {first}});
      parts.push_back({p + ".mul_cos", stream(bytes, bytes, elements, rows), {composite_input(0)}});
      parts.push_back({p + ".mul_sin", stream(bytes, bytes, elements, rows), {first + 1}});
      parts.push_back({p + ".add", stream(2 * bytes, bytes, elements, rows), {first + 2, first + 3}});
    }
    return parts;
  }

  // The activation between the up and down projections, over `rows` token rows.
  OpVertex activation(const std::string& layer_prefix, std::int64_t rows, OpVertex in) {
    double f = double(m_.ffn), r = double(rows);
    if (m_.gated) {
      // Its parts: silu(gate) then ·up, the first writing silu(gate) for the second.
      std::vector<OpPart> parts = {
          {layer_prefix + m_.activation, stream(r * f * a_, r * f * a_, (kSiluMulFlops - 1) * r * f, rows),
           {composite_input(0)}},
          {layer_prefix + m_.activation + "_mul", stream(2 * r * f * a_, r * f * a_, r * f, rows),
           {0, composite_input(0)}}};
      return add(layer_prefix + m_.activation + "_mul", "elementwise",
                 stream(2 * r * f * a_, r * f * a_, kSiluMulFlops * r * f, rows), {in}, std::move(parts));
    }
    double per = m_.activation == "gelu" ? kGeluFlops : kSiluMulFlops - 1;
    return add(layer_prefix + m_.activation, "elementwise", stream(r * f * a_, r * f * a_, per * r * f, rows), {in});
  }

  OpVertex dense_ffn(std::int64_t i, OpVertex in) {
    std::string p = fmt::format("L{}.", i);
    std::int64_t up_n = (m_.gated ? 2 : 1) * m_.ffn;
    OpVertex up = add(p + (m_.gated ? "gate_up" : "up_proj"), "gemm", linear(s_.tokens(), up_n, m_.hidden), {in});
    OpVertex act = activation(p, s_.tokens(), up);
    return add(p + "down_proj", "gemm", linear(s_.tokens(), m_.hidden, m_.ffn), {act});
  }

  // Router → top-k → grouped expert GEMMs over the distinct experts the step's tokens touch
  // (moe.h); the tokens·top_k routed rows are spread evenly over those experts.
  OpVertex moe_ffn(std::int64_t i, OpVertex in) {
    std::string p = fmt::format("L{}.", i);
    double E = double(m_.experts), k = double(m_.top_k);
    OpVertex router = add(p + "router", "gemm", linear(s_.tokens(), m_.experts, m_.hidden), {in});
    // Softmax over the E logits and selection of k (a reduction, not elementwise: no compiler fuses
    // it into the router GEMM): reads T·E logits, writes k (weight, int32 index).
    OpVertex topk = topk_ = add(p + "topk", "reduction", stream(T_ * E * a_, T_ * k * (a_ + 4), 4 * T_ * E, s_.tokens()),
                        {router});
    std::int64_t routed = s_.tokens() * m_.top_k;
    std::int64_t groups = expected_distinct_experts(m_.experts, routed);
    std::int64_t rows_per_expert = (routed + groups - 1) / groups;
    OpVertex up = add(p + "expert_gate_up", "gemm",
                      linear(rows_per_expert, (m_.gated ? 2 : 1) * m_.ffn, m_.hidden, groups), {in, topk});
    OpVertex act = activation(p, routed, up);
    return add(p + "expert_down", "gemm", linear(rows_per_expert, m_.hidden, m_.ffn, groups), {act});
  }

  // MoE residual: the top_k expert outputs weighted by their router probabilities and added to
  // the residual stream in one pass (reads k expert rows, the k weights and the residual).
  OpVertex moe_residual(const std::string& name, OpVertex skip, OpVertex experts) {
    double h = double(m_.hidden), k = double(m_.top_k);
    return add(name, "elementwise", stream((k + 1) * T_ * h * a_ + T_ * k * a_, T_ * h * a_, 2 * k * T_ * h, s_.tokens()),
               {skip, experts, topk_});
  }

  const ModelArchitecture& m_;
  LlmDtypes d_;
  LlmStepShape s_;
  double T_, a_;
  OpGraph g_;
  OpVertex topk_ = 0;  // the current layer's router top-k (its weights feed the MoE residual)
};

}  // namespace

OpGraph lower_llm_step(const ModelArchitecture& arch, const LlmDtypes& dtypes, const LlmStepShape& shape) {
  return StepBuilder(arch, dtypes, shape).build();
}

}  // namespace hwsim
