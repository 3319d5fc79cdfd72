#include "models/gpu/tile/naive_attention_lowering.h"

#include <fmt/format.h>

#include "models/gpu/tile/gemm_lowering.h"
#include "models/gpu/tile/stream_lowering.h"
#include "sim/error.h"

namespace hwsim {
namespace {

// Vector FLOPs per score of softmax (max, subtract, exp, sum, divide).
constexpr double kSoftmaxFlops = 5;
constexpr double kF32 = 4;  // the math path's working dtype (bytes)

// The math path's temporaries, as tensor ids of their own inside the op's object range: tensor_blocks
// puts block b of tensor T at (T << 24) + b, so temporary k lands at object_base + k·2^34 + b.
// Sub-kernels get object ranges of 2^26 below the first temporary.
std::int64_t temporary(std::int64_t object_base, int k) { return (object_base >> 24) + (std::int64_t(k) << 10); }
std::int64_t sub_kernel_base(std::int64_t object_base, int i) { return object_base + (std::int64_t(i) << 26); }

bool is_half(DType t) { return t == DType::bf16 || t == DType::fp16; }

class MathPath {
 public:
  MathPath(const AttentionOp& op, const std::string& name, const GpuChip& chip, std::int64_t object_base)
      : op_(op), name_(name), chip_(chip), base_(object_base) {}

  int tensor() { return next_tensor_++; }
  std::int64_t id(int t) const { return temporary(base_, t); }

  // One elementwise (or, with `lowering` "softmax", row-softmax) kernel of the path.
  void stream(const char* part, double read, double written, double flops, double rows, std::int64_t in,
              std::int64_t out, const char* lowering = "elementwise") {
    StreamOp s;
    s.bytes_read = read, s.bytes_written = written, s.flops = flops, s.rows = std::int64_t(rows);
    s.element_bytes = bytes_per_element(work_);
    Kernel k = lower_stream(s, name_ + "." + part, lowering, chip_, TensorIds{in, out}, next_base());
    k.op_class = "attention";
    kernels_.push_back(std::move(k));
  }

  void gemm(const char* part, std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t in, std::int64_t out) {
    GemmOp g;
    g.m = m, g.n = n, g.k = k, g.groups = op_.batch * op_.heads;
    g.a = g.b = g.out = work_;
    Kernel kernel = lower_gemm(g, name_ + "." + part, choose_gemm_tiling(g, chip_), chip_, next_base(), TensorIds{in, out});
    kernel.op_class = "attention";
    kernels_.push_back(std::move(kernel));
  }

  std::vector<Kernel> build(TensorIds tensors);

 private:
  std::int64_t next_base() { return sub_kernel_base(base_, int(kernels_.size())); }

  const AttentionOp& op_;
  const std::string& name_;
  const GpuChip& chip_;
  std::int64_t base_;
  DType work_ = DType::fp32;
  int next_tensor_ = 1;
  std::vector<Kernel> kernels_;
};

std::vector<Kernel> MathPath::build(TensorIds tensors) {
  const AttentionOp& a = op_;
  bool upcast = is_half(a.dtype);
  work_ = upcast ? DType::fp32 : a.dtype;
  double w = bytes_per_element(work_), e = bytes_per_element(a.dtype), ekv = bytes_per_element(a.kv_dtype);
  double q = double(a.batch * a.heads * a.q_len * a.head_dim);
  double kv = double(a.batch * a.kv_heads * a.kv_len * a.head_dim);
  double kv_expanded = double(a.batch * a.heads * a.kv_len * a.head_dim);
  double rows = double(a.batch * a.heads * a.q_len), scores = rows * double(a.kv_len);
  double mask = double(a.q_len * a.kv_len);
  std::int64_t k_cache = id(tensor()), v_cache = id(tensor());  // K and V as the caller holds them

  std::int64_t qf = tensors.input, kf = k_cache, vf = v_cache;
  if (upcast) {
    stream("q_to_float", q * e, q * w, 0, rows, tensors.input, qf = id(tensor()));
    stream("k_to_float", kv * ekv, kv * w, 0, 1, k_cache, kf = id(tensor()));
    stream("v_to_float", kv * ekv, kv * w, 0, 1, v_cache, vf = id(tensor()));
  }
  std::int64_t qs = id(tensor());
  stream("q_scale", q * w, q * w, q, rows, qf, qs);
  std::int64_t bias = -1;
  if (a.causal) {
    std::int64_t ones = id(tensor()), tril = id(tensor()), zeros = id(tensor()), inverted = id(tensor());
    stream("mask_ones", 0, mask, 0, double(a.q_len), -1, ones);
    stream("mask_tril", mask, mask, 0, double(a.q_len), ones, tril);
    stream("mask_zeros", 0, mask * w, 0, double(a.q_len), -1, zeros);
    stream("mask_not", mask, mask, mask, double(a.q_len), tril, inverted);
    stream("mask_fill", mask * (1 + w), mask * w, 0, double(a.q_len), inverted, bias = zeros);
  }
  std::int64_t ke = kf, ve = vf;
  if (a.heads != a.kv_heads) {
    stream("k_repeat_interleave", kv * w, kv_expanded * w, 0, 1, kf, ke = id(tensor()));
    stream("v_repeat_interleave", kv * w, kv_expanded * w, 0, 1, vf, ve = id(tensor()));
  }
  std::int64_t ks = id(tensor());
  stream("k_scale", kv_expanded * w, kv_expanded * w, kv_expanded, 1, ke, ks);
  std::int64_t s = id(tensor());
  gemm("qk_gemm", a.q_len, a.kv_len, a.head_dim, qs, s);
  if (bias >= 0) {
    std::int64_t masked = id(tensor());
    stream("mask_add", scores * w + mask * w, scores * w, scores, rows, s, masked);
    s = masked;
  }
  std::int64_t p = id(tensor()), is_inf = id(tensor()), row_flags = id(tensor()), p2 = id(tensor());
  stream("softmax", scores * w, scores * w, kSoftmaxFlops * scores, rows, s, p, "softmax");
  stream("softmax_eq_inf", scores * w, scores, scores, rows, s, is_inf);
  stream("softmax_all", scores, rows, scores, rows, is_inf, row_flags);
  stream("softmax_where", scores * w + rows, scores * w, scores, rows, p, p2);
  std::int64_t of = upcast ? id(tensor()) : tensors.output;
  gemm("pv_gemm", a.q_len, a.head_dim, a.kv_len, p2, of);
  if (upcast) stream("out_to_dtype", q * w, q * e, 0, rows, of, tensors.output);
  (void)ve;  // the GEMMs load K and V through their own panels (see the header)
  return std::move(kernels_);
}

}  // namespace

double naive_attention_peak_bytes(const AttentionOp& a) {
  double w = is_half(a.dtype) ? kF32 : bytes_per_element(a.dtype);
  double scores = double(a.batch * a.heads * a.q_len) * double(a.kv_len);
  double kv_expanded = double(a.batch * a.heads * a.kv_len * a.head_dim);
  // Inside _safe_softmax: the masked scores, the softmax output, the eq(−inf) flags and the where
  // result are alive together, beside the expanded (scaled) K and V.
  return scores * (3 * w + 1) + 2 * kv_expanded * w;
}

std::vector<Kernel> lower_naive_attention(const AttentionOp& op, const std::string& name, const GpuChip& chip,
                                          std::int64_t object_base, TensorIds tensors) {
  double peak = naive_attention_peak_bytes(op);
  if (peak > chip.hbm_bytes)
    workload_error(fmt::format("{}: naive attention materialises the scores: {:.3g} GB of fp32 temporaries "
                               "(batch·heads·q_len·kv_len scores, several live at once) exceed {}'s {:.3g} GB; use a "
                               "fused implementation (impl=flash2, cudnn, mem_efficient) or a smaller shape",
                               name, peak / 1e9, chip.name, chip.hbm_bytes / 1e9));
  return MathPath(op, name, chip, object_base).build(tensors);
}

}  // namespace hwsim
