#include "workloads/llm/step_lowering.h"
#include "workloads/llm/op_names.h"

#include <fmt/format.h>
#include <stdexcept>

#include "workloads/llm/moe.h"
#include "workloads/llm/parallel_layout.h"

namespace hwsim {

namespace {

// The queries' dtype of attention. 8-bit activations (W8A8: fp8 or int8) are a GEMM input format:
// frameworks quantise each linear layer's input and run attention in bf16 over a bf16 cache (vLLM's
// fp8 checkpoints), or wholly in fp8 over an fp8 cache (FlashAttention-3's fp8 path).
DType attention_query_dtype(DType act, DType kv) {
  if (bytes_per_element(act) >= 2) return act;
  return bytes_per_element(kv) < 2 ? kv : DType::bf16;
}
}  // namespace

namespace {

// Vector FLOPs per element, documented once: rmsnorm x², Σ, ·rsqrt, ·γ = 4; layernorm Σ, −mean,
// x², Σ, ·rsqrt, ·γ, +β = 7; RoPE x·cos + rotate(x)·sin = 3; SiLU·mul (x·sigmoid(x) as neg, exp,
// +1, ÷, then ·up) = 5; GELU (tanh approximation) = 8; add = 1.
constexpr double kRmsNormFlops = 4, kLayerNormFlops = 7, kRopeFlops = 3, kSiluMulFlops = 5, kGeluFlops = 8;

// Builds the ops ONE device runs. `shape` is that device's share of one microbatch (its
// sequences); `p` the layout (all 1: the single-device graph). The per-rank sizes (heads_,
// kv_heads_, ffn_, vocab_, experts_) equal the model's when tp = ep = 1, so the single-device
// graph is the one this builder always produced.
class StepBuilder {
 public:
  StepBuilder(const ModelArchitecture& arch, const LlmDtypes& dtypes, const LlmStepShape& shape,
              const Parallelism& p = {})
      : m_(arch), d_(dtypes), s_(shape), p_(p), T_(double(shape.rows())),
        a_(bytes_per_element(dtypes.act)), heads_(arch.heads / p.tp), kv_heads_(arch.kv_heads / p.tp),
        ffn_(arch.ffn / p.tp), vocab_(padded_vocab(arch.vocab, p.tp) / p.tp), experts_(arch.experts / p.ep),
        stages_(stage_layers(arch.layers, p.pp)) {}

  // Microbatch 0 entirely (every stage), then microbatch 1, ...: each stage's ops, in insertion
  // order, are the GPipe schedule.
  OpGraph build() {
    for (std::int64_t mb = 0; mb < p_.microbatches; ++mb) {
      prefix_ = microbatch_prefix(mb, p_.microbatches);
      forward();
    }
    return std::move(g_);
  }

 private:
  void forward() {
    stage_ = 0;
    OpVertex x = embed();
    // Vocabulary-parallel embedding (Megatron): each rank looks up the ids in its vocab shard,
    // zeros the others, and the ranks sum their rows.
    if (p_.tp > 1)
      x = sp() ? collective("embed_reduce_scatter", CollectiveKind::reduce_scatter, ParallelAxis::tp, T_ * hidden_bytes(), {x})
               : tp_all_reduce("embed_all_reduce", T_ * hidden_bytes(), x);
    for (std::size_t s = 0; s < stages_.size(); ++s) {
      stage_ = int(s);
      const StageLayers& st = stages_[s];
      for (std::int64_t i = st.first; i < st.first + st.count; ++i) x = layer(i, x);
      // The hidden states after the stage's last layer go to the next stage, whose first ops
      // (attn_norm and the residual) consume them.
      if (s + 1 < stages_.size())
        x = collective(layer_op_name(st.first + st.count - 1, "send_recv"), CollectiveKind::send_recv,
                       ParallelAxis::pp, T_ * hidden_bytes() / double(sp() ? p_.tp : 1), {x});
    }
    OpVertex n = gather_sequence("final_all_gather", norm("final_norm", sharded_rows(), x));
    // The LM head runs on the last token of each sequence only (M = batch). Tied: it reads the
    // token-embedding matrix, stored in the activation dtype. tp > 1: each rank computes the logits
    // of its vocab shard, then the ranks gather them (the whole padded vocabulary).
    GemmOp head = linear(s_.sequences(), vocab_, m_.hidden);
    if (m_.tied_embeddings) head.b = d_.act;
    OpVertex logits = add("lm_head", "gemm", head, {n});
    if (p_.tp > 1)
      collective("logits_all_gather", CollectiveKind::all_gather, ParallelAxis::tp,
                 double(s_.batch) * double(vocab_ * p_.tp) * a_, {logits});
  }

  OpVertex add(const std::string& name, const std::string& op_class, Op::Shape shape,
               const std::vector<OpVertex>& inputs, std::vector<OpPart> parts = {}) {
    Op op;
    op.name = prefix_ + name;
    op.op_class = op_class;
    op.shape = std::move(shape);
    op.stage = stage_;
    for (OpPart& part : parts) part.name = prefix_ + part.name;
    op.parts = std::move(parts);
    return add_op(g_, std::move(op), inputs);
  }

  // A collective among the ranks along `axis` (its group size from the layout); class "collective".
  OpVertex collective(const std::string& name, CollectiveKind kind, ParallelAxis axis, double bytes,
                      const std::vector<OpVertex>& inputs) {
    CollectiveOp c;
    c.kind = kind, c.bytes = bytes, c.axis = axis, c.dtype = d_.act;
    c.ranks = axis == ParallelAxis::tp ? p_.tp : axis == ParallelAxis::pp ? p_.pp : axis == ParallelAxis::ep ? p_.ep
            : axis == ParallelAxis::dp ? p_.dp : p_.ranks();
    return add(name, "collective", c, inputs);
  }

  // Sums the tp ranks' partial results (Megatron's row-parallel output, the vocab-parallel embedding).
  OpVertex tp_all_reduce(const std::string& name, double bytes, OpVertex in) {
    return collective(name, CollectiveKind::all_reduce, ParallelAxis::tp, bytes, {in});
  }

  // Sequence parallelism (Parallelism::sequence_parallel): norms and residual adds on this rank's
  // share of the tokens.
  bool sp() const { return p_.tp > 1 && p_.sequence_parallel; }
  std::int64_t sharded_rows() const { return sp() ? s_.rows() / p_.tp : s_.rows(); }
  // Before a column-parallel GEMM: the sequence shards gathered (sequence parallelism), else `in`.
  OpVertex gather_sequence(const std::string& name, OpVertex in) {
    if (!sp()) return in;
    return collective(name, CollectiveKind::all_gather, ParallelAxis::tp, T_ * hidden_bytes(), {in});
  }
  // After a row-parallel GEMM: the tp ranks' partial sums summed (`<what>_all_reduce`), or summed
  // and scattered along the sequence (`<what>_reduce_scatter`, sequence parallelism).
  OpVertex tp_reduce(const std::string& what, OpVertex in) {
    if (!sp()) return tp_all_reduce(what + "_all_reduce", T_ * hidden_bytes(), in);
    return collective(what + "_reduce_scatter", CollectiveKind::reduce_scatter, ParallelAxis::tp, T_ * hidden_bytes(), {in});
  }

  // One token's hidden state in the activation dtype.
  double hidden_bytes() const { return double(m_.hidden) * a_; }

  GemmOp linear(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t groups = 1) const {
    GemmOp op;
    op.m = m, op.n = n, op.k = k, op.groups = groups;
    op.a = d_.act, op.b = d_.weights, op.out = d_.act, op.dequant = d_.dequant;
    return op;
  }

  static StreamOp stream(double read, double written, double flops, std::int64_t rows) {
    StreamOp op;
    op.bytes_read = read, op.bytes_written = written, op.flops = flops, op.rows = rows;
    return op;
  }
  // An eager part that PyTorch runs on its unvectorised kernel (StreamOp::unvectorized): it reads a
  // strided slice of a fused projection's output (q, k and v of qkv, gate and up of gate_up) or a
  // table broadcast over the heads (cos, sin).
  StreamOp unvectorized(StreamOp op) const {
    op.unvectorized = true;
    op.element_bytes = a_;
    return op;
  }

  // Token rows of the table in (learned positions: plus the position rows, added).
  OpVertex embed() {
    double h = double(m_.hidden);
    bool learned = m_.position == "learned";
    double read = T_ * h * a_ * (learned ? 2 : 1);
    return add("embed", "elementwise", stream(read, T_ * h * a_, learned ? T_ * h : 0, s_.rows()), {});
  }

  // Reads rows·width activations and the γ (and β) weights, writes rows·width (width: hidden, or an
  // MLA bottleneck's rank).
  OpVertex norm(const std::string& name, std::int64_t rows, OpVertex in, std::int64_t width = 0) {
    double w = double(width > 0 ? width : m_.hidden), r = double(rows);
    bool rms = m_.norm == "rmsnorm";
    double weights = (rms ? 1 : 2) * w * a_;
    double flops = (rms ? kRmsNormFlops : kLayerNormFlops) * r * w;
    return add(name, "norm", stream(r * w * a_ + weights, r * w * a_, flops, rows), {in});
  }

  OpVertex residual(const std::string& name, OpVertex skip, OpVertex branch) {
    double h = double(m_.hidden), r = double(sharded_rows());
    return add(name, "elementwise", stream(2 * r * h * a_, r * h * a_, r * h, sharded_rows()), {skip, branch});
  }

  // Per tensor-parallel rank: heads_ query and kv_heads_ KV heads (Megatron's column split of
  // qkv_proj, row split of o_proj); norms and residuals are replicated on the full hidden size.
  OpVertex layer(std::int64_t i, OpVertex x) {
    auto name = [&](const char* op) { return layer_op_name(i, op); };
    OpVertex n1 = gather_sequence(name("attn_all_gather"), norm(name("attn_norm"), sharded_rows(), x));
    OpVertex o = m_.is_mla() ? mla_attention(i, n1) : attention(i, n1);
    // Row-split o_proj leaves each rank a partial sum of the full hidden rows.
    if (p_.tp > 1) o = tp_reduce(name("attn"), o);
    OpVertex r1 = residual(name("attn_residual"), x, o);
    OpVertex n2 = gather_sequence(name("ffn_all_gather"), norm(name("ffn_norm"), sharded_rows(), r1));
    if (!m_.is_moe_layer(i))
      return residual(name("ffn_residual"), r1, dense_ffn(i, n2, m_.is_moe() ? m_.dense_ffn : ffn_));
    return moe_residual(name("ffn_residual"), r1, moe_ffn(i, n2));
  }

  // Multi-head (GQA) attention: qkv_proj → rope → kv_append → attention → o_proj.
  OpVertex attention(std::int64_t i, OpVertex n1) {
    auto name = [&](const char* op) { return layer_op_name(i, op); };
    const double H = double(heads_), G = double(kv_heads_), D = double(m_.head_dim);
    const double kv = bytes_per_element(d_.kv);
    OpVertex qkv = add(name("qkv_proj"), "gemm",
                       linear(s_.rows(), (heads_ + 2 * kv_heads_) * m_.head_dim, m_.hidden), {n1});
    OpVertex q_and_k = qkv;
    if (m_.position == "rope") {
      // Rotates q and k in place of a copy: reads them and the cos/sin tables ([T, head_dim] each).
      double qk = T_ * (H + G) * D * a_;
      q_and_k = add(name("rope"), "elementwise", stream(qk + 2 * T_ * D * a_, qk, kRopeFlops * T_ * (H + G) * D, s_.rows()),
                    {qkv}, rope_parts(name("rope"), T_ * H * D * a_, T_ * G * D * a_));
    }
    // Writes the step's new K and V into the cache, converting to the kv dtype (its parts: one copy
    // each for K and V).
    double new_kv = double(s_.tokens()) * 2 * G * D;  // padded rows write nothing
    std::vector<OpVertex> kv_inputs = {q_and_k};
    if (q_and_k != qkv) kv_inputs.push_back(qkv);
    StreamOp half = unvectorized(stream(new_kv / 2 * a_, new_kv / 2 * kv, 0, s_.tokens()));  // strided k, v
    std::vector<OpPart> copies = {{name("kv_append.k"), half, {composite_input(0)}},
                                  {name("kv_append.v"), half, {composite_input(int(kv_inputs.size()) - 1), 0}}};
    OpVertex append = add(name("kv_append"), "elementwise", stream(new_kv * a_, new_kv * kv, 0, s_.tokens()), kv_inputs,
                          std::move(copies));

    AttentionOp attn;
    attn.heads = heads_, attn.kv_heads = kv_heads_, attn.head_dim = m_.head_dim;
    return add(name("o_proj"), "gemm", linear(s_.rows(), m_.hidden, heads_ * m_.head_dim),
               attention_ops(i, attn, {q_and_k, append}));
  }

  // One attention op per group of the step (serving's mixed steps), with `shape`'s heads and dims.
  std::vector<OpVertex> attention_ops(std::int64_t i, AttentionOp shape, const std::vector<OpVertex>& inputs) {
    std::vector<LlmAttentionGroup> groups = s_.groups;
    if (groups.empty()) groups.push_back({s_.batch, s_.q_len, s_.kv_len});
    std::vector<OpVertex> attended;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      AttentionOp attn = shape;
      attn.batch = groups[g].batch, attn.q_len = groups[g].q_len, attn.kv_len = groups[g].kv_len;
      // As Hugging Face calls SDPA: is_causal only when a group has several new tokens; one new
      // token sees its whole cache (the same pairs), so flash kernels that refuse a causal mask
      // with q_len != kv_len still take a decode step.
      attn.causal = groups[g].q_len > 1, attn.window = m_.window;
      attn.dtype = attention_query_dtype(d_.act, d_.kv), attn.kv_dtype = d_.kv, attn.impl = d_.attention;
      std::string attn_name = s_.groups.empty() ? layer_op_name(i, "attention") : layer_op_name(i, fmt::format("attention.g{}", g));
      attended.push_back(add(attn_name, "attention", attn, inputs));
    }
    return attended;
  }

  // Multi-head latent attention (DeepSeek-V2/V3) in the absorbed form inference engines run: q
  // through its low-rank bottleneck (q_a_proj → norm → q_b_proj), the KV latent and the shared RoPE
  // key from kv_a_proj (→ norm), the latent appended to the cache; each head's no-RoPE query
  // multiplied into latent space (q_absorb: W_UK per head), attention of every head over the one
  // latent "KV head" (QK dim kv_lora_rank + rope_head_dim), the result taken back per head
  // (v_absorb: W_UV), then o_proj. One device only (parallel_layout refuses tp > 1).
  OpVertex mla_attention(std::int64_t i, OpVertex n1) {
    auto name = [&](const char* op) { return layer_op_name(i, op); };
    const std::int64_t H = heads_, D = m_.head_dim, R = m_.rope_head_dim, L = m_.kv_lora_rank;
    const std::int64_t V = m_.v_head_dim > 0 ? m_.v_head_dim : D, T = s_.rows();
    OpVertex q = n1;
    if (m_.q_lora_rank > 0) {
      q = add(name("q_a_proj"), "gemm", linear(T, m_.q_lora_rank, m_.hidden), {n1});
      q = norm(name("q_a_norm"), T, q, m_.q_lora_rank);
    }
    q = add(name("q_b_proj"), "gemm", linear(T, H * D, m_.q_lora_rank > 0 ? m_.q_lora_rank : m_.hidden), {q});
    OpVertex latent = add(name("kv_a_proj"), "gemm", linear(T, L + R, m_.hidden), {n1});
    latent = norm(name("kv_a_norm"), T, latent, L);
    double rope = T_ * double(H * R + R) * a_;
    OpVertex rotated = add(name("rope"), "elementwise", stream(rope + 2 * T_ * double(R) * a_, rope, kRopeFlops * rope / a_, T),
                           {q, latent});
    double cached = double(s_.tokens()) * double(L + R);  // padded rows write nothing
    OpVertex append = add(name("kv_append"), "elementwise",
                          stream(cached * a_, cached * bytes_per_element(d_.kv), 0, s_.tokens()),
                          {latent, rotated});
    GemmOp absorb = linear(T, L, D - R, H);
    OpVertex q_latent = add(name("q_absorb"), "gemm", absorb, {q, rotated});
    AttentionOp attn;
    attn.heads = H, attn.kv_heads = 1, attn.head_dim = L + R;
    OpVertex heads_out = add(name("v_absorb"), "gemm", linear(T, V, L, H), attention_ops(i, attn, {q_latent, append}));
    return add(name("o_proj"), "gemm", linear(T, m_.hidden, H * V), {heads_out});
  }

  // HF rotate_half RoPE as its torch ops, for q (q_bytes) then k (k_bytes): per tensor x2·(−1) on
  // the second half, cat(−x2, x1), x·cos, rotated·sin, and their sum — 5 ops, each a full pass
  // (the cos/sin tables are [T, head_dim], negligible next to q and k). All read the composite's
  // input (qkv).
  std::vector<OpPart> rope_parts(const std::string& prefix, double q_bytes, double k_bytes) const {
    std::vector<OpPart> parts;
    for (auto [tag, bytes] : {std::pair{"q", q_bytes}, std::pair{"k", k_bytes}}) {
      std::string p = prefix + "." + tag;
      std::int64_t rows = s_.rows();
      double elements = bytes / a_;
      int first = int(parts.size());
      parts.push_back({p + ".neg", unvectorized(stream(bytes / 2, bytes / 2, elements / 2, rows)), {composite_input(0)}});
      parts.push_back({p + ".cat", stream(bytes, bytes, 0, rows), {first}});
      parts.push_back({p + ".mul_cos", unvectorized(stream(bytes, bytes, elements, rows)), {composite_input(0)}});
      parts.push_back({p + ".mul_sin", unvectorized(stream(bytes, bytes, elements, rows)), {first + 1}});
      parts.push_back({p + ".add", stream(2 * bytes, bytes, elements, rows), {first + 2, first + 3}});
    }
    return parts;
  }

  // The activation between the up and down projections, over `rows` token rows (ffn_ wide: the
  // rank's column shard).
  OpVertex activation(const std::string& layer_prefix, std::int64_t rows, OpVertex in, std::int64_t width = 0,
                      const std::string& tag = "") {
    double f = double(width > 0 ? width : ffn_), r = double(rows);
    if (m_.gated) {
      // Its parts: silu(gate) then ·up, the first writing silu(gate) for the second.
      std::vector<OpPart> parts = {
          {layer_prefix + tag + m_.activation,
           unvectorized(stream(r * f * a_, r * f * a_, (kSiluMulFlops - 1) * r * f, rows)), {composite_input(0)}},
          {layer_prefix + tag + m_.activation + "_mul", unvectorized(stream(2 * r * f * a_, r * f * a_, r * f, rows)),
           {0, composite_input(0)}}};
      return add(layer_prefix + tag + m_.activation + "_mul", "elementwise",
                 stream(2 * r * f * a_, r * f * a_, kSiluMulFlops * r * f, rows), {in}, std::move(parts));
    }
    double per = m_.activation == "gelu" ? kGeluFlops : kSiluMulFlops - 1;
    return add(layer_prefix + tag + m_.activation, "elementwise", stream(r * f * a_, r * f * a_, per * r * f, rows), {in});
  }

  // `width`: the FFN's intermediate size on this rank (ffn_, or a MoE model's dense_ffn).
  OpVertex dense_ffn(std::int64_t i, OpVertex in, std::int64_t width) {
    std::string p = layer_prefix(i);
    std::int64_t up_n = (m_.gated ? 2 : 1) * width;
    OpVertex up = add(p + (m_.gated ? "gate_up" : "up_proj"), "gemm", linear(s_.rows(), up_n, m_.hidden), {in});
    OpVertex act = activation(p, s_.rows(), up, width);
    OpVertex down = add(p + "down_proj", "gemm", linear(s_.rows(), m_.hidden, width), {act});
    if (p_.tp > 1) down = tp_reduce(p + "ffn", down);
    return down;
  }

  // Router → top-k → grouped expert GEMMs over the distinct experts the step's tokens touch
  // (moe.h); the tokens·top_k routed rows are spread evenly over those experts.
  // ep > 1: the router and top-k are replicated (each ep rank routes its own tokens); an
  // all_to_all dispatch sends each routed row to the rank holding its expert and an all_to_all
  // combine brings the expert outputs back; routing is taken as evenly balanced, so each rank's
  // experts_ (experts / ep) local experts receive tokens·top_k rows, as many as it sent.
  // tp > 1: each expert's GEMMs are split like the dense MLP, and the down projection's partial
  // sums are all-reduced over the routed rows (tokens·top_k·hidden: the top_k rows of a token are
  // weighted and summed later, by the residual op).
  OpVertex moe_ffn(std::int64_t i, OpVertex in) {
    std::string p = layer_prefix(i);
    double E = double(m_.experts), k = double(m_.top_k);
    OpVertex router = add(p + "router", "gemm", linear(s_.rows(), m_.experts, m_.hidden), {in});
    // Softmax over the E logits and selection of k (a reduction, not elementwise: no compiler fuses
    // it into the router GEMM): reads T·E logits, writes k (weight, int32 index).
    StreamOp select = stream(T_ * E * a_, T_ * k * (a_ + 4), 4 * T_ * E, s_.rows());
    select.element_bytes = a_;
    OpVertex topk = topk_ = add(p + "topk", "reduction", select, {router});
    std::int64_t routed = s_.rows() * m_.top_k;
    const double routed_bytes = double(routed) * hidden_bytes();
    std::vector<OpVertex> expert_inputs = {in, topk};
    if (p_.ep > 1)
      expert_inputs = {
          collective(p + "ep_dispatch", CollectiveKind::all_to_all, ParallelAxis::ep, routed_bytes, {in, topk})};
    std::int64_t groups = expected_distinct_experts(experts_, routed);
    std::int64_t rows_per_expert = (routed + groups - 1) / groups;
    OpVertex up = add(p + "expert_gate_up", "gemm",
                      linear(rows_per_expert, (m_.gated ? 2 : 1) * ffn_, m_.hidden, groups), expert_inputs);
    OpVertex act = activation(p, routed, up);
    OpVertex down = add(p + "expert_down", "gemm", linear(rows_per_expert, m_.hidden, ffn_, groups), {act});
    if (p_.tp > 1) down = tp_all_reduce(p + "ffn_all_reduce", routed_bytes, down);
    if (p_.ep > 1)
      down = collective(p + "ep_combine", CollectiveKind::all_to_all, ParallelAxis::ep, routed_bytes, {down});
    if (m_.shared_experts > 0) shared_ = shared_experts(p, in);
    return down;
  }

  // DeepSeek's shared experts: every token through shared_experts experts of ffn, as one dense FFN
  // of shared_experts·ffn (the residual adds its output beside the routed experts').
  OpVertex shared_experts(const std::string& p, OpVertex in) {
    std::int64_t width = m_.shared_experts * ffn_;
    OpVertex up = add(p + "shared_gate_up", "gemm", linear(s_.rows(), (m_.gated ? 2 : 1) * width, m_.hidden), {in});
    OpVertex act = activation(p, s_.rows(), up, width, "shared_");
    return add(p + "shared_down", "gemm", linear(s_.rows(), m_.hidden, width), {act});
  }

  // MoE residual: the top_k expert outputs weighted by their router probabilities and added to
  // the residual stream in one pass (reads k expert rows, the k weights and the residual).
  OpVertex moe_residual(const std::string& name, OpVertex skip, OpVertex experts) {
    double h = double(m_.hidden), k = double(m_.top_k), shared = m_.shared_experts > 0 ? 1 : 0;
    std::vector<OpVertex> inputs = {skip, experts, topk_};
    if (m_.shared_experts > 0) inputs.push_back(shared_);
    return add(name, "elementwise",
               stream((k + 1 + shared) * T_ * h * a_ + T_ * k * a_, T_ * h * a_, (2 * k + shared) * T_ * h, s_.rows()),
               inputs);
  }

  const ModelArchitecture& m_;
  LlmDtypes d_;
  LlmStepShape s_;
  Parallelism p_;
  double T_, a_;
  std::int64_t heads_, kv_heads_, ffn_, vocab_, experts_;  // per rank
  std::vector<StageLayers> stages_;
  std::string prefix_;  // "mb1." with microbatches, else ""
  int stage_ = 0;       // the pipeline stage of the ops being added
  OpGraph g_;
  OpVertex topk_ = 0;  // the current layer's router top-k (its weights feed the MoE residual)
  OpVertex shared_ = 0;  // the current layer's shared-expert output (DeepSeek)
};

}  // namespace

OpGraph lower_llm_step(const ModelArchitecture& arch, const LlmDtypes& dtypes, const LlmStepShape& shape) {
  return StepBuilder(arch, dtypes, shape).build();
}

OpGraph lower_parallel_llm_step(const ModelArchitecture& arch, const LlmDtypes& dtypes, const LlmStepShape& shape,
                                const Parallelism& p) {
  if (p.single() && p.microbatches == 1) return lower_llm_step(arch, dtypes, shape);
  bool ok = arch.heads % p.tp == 0 && arch.kv_heads % p.tp == 0 && arch.ffn % p.tp == 0 && arch.experts % p.ep == 0 &&
            p.pp <= arch.layers && shape.batch % (p.dp * p.ep * p.microbatches) == 0;
  if (!ok)
    throw std::logic_error(fmt::format("lower_parallel_llm_step: {} does not fit {} at batch {} (check_parallelism "
                                       "first)", layout_text(p), arch.name, shape.batch));
  LlmStepShape local = shape;
  local.batch = microbatch_sequences(shape.batch, p);
  return StepBuilder(arch, dtypes, local, p).build();
}

bool reshape_decode_step(OpGraph& graph, std::int64_t kv_len) {
  std::vector<AttentionOp*> attention;
  for (auto [v, end] = boost::vertices(graph); v != end; ++v) {
    auto* a = std::get_if<AttentionOp>(&graph[*v].shape);
    if (!a) continue;
    if (a->q_len != 1 || a->causal) return false;
    attention.push_back(a);
  }
  for (AttentionOp* a : attention) a->kv_len = kv_len;
  return !attention.empty();
}

}  // namespace hwsim
