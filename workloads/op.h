#pragma once
// An operation of a workload, as the frontend knows it: shapes and dtypes, never hardware.
// Lowering for a target (models/gpu/tile/...) turns ops into kernels.
#include <cstdint>
#include <string>
#include <variant>

#include "workloads/dtype.h"

namespace hwsim {

// out[M,N] = x[M,K] · W[N,K]ᵀ, repeated `groups` times on distinct weights (grouped GEMM, e.g.
// MoE experts). `a` is the activation dtype, `b` the weight dtype, `out` the result dtype.
struct GemmOp {
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t groups = 1;
  DType a = DType::bf16, b = DType::bf16, out = DType::bf16;
};

// A pass over memory with little arithmetic (norms, activations, adds, copies): reads
// `bytes_read`, writes `bytes_written`, does `flops` of vector work.
struct StreamOp {
  double bytes_read = 0;
  double bytes_written = 0;
  double flops = 0;
  std::int64_t rows = 1;  // independent rows (for the CTA count of row-wise kernels)
};

// Scaled-dot-product attention over a KV cache: `batch` sequences, `heads` query heads sharing
// `kv_heads` KV heads (GQA), `q_len` new queries attending to `kv_len` keys (the queries are the
// last q_len positions). causal: query i sees keys up to its own position; window > 0: only the
// last `window` keys (sliding window).
struct AttentionOp {
  std::int64_t batch = 1, heads = 1, kv_heads = 1, head_dim = 128;
  std::int64_t q_len = 1, kv_len = 1;
  bool causal = true;
  std::int64_t window = 0;
  DType dtype = DType::bf16;     // Q, O and the math
  DType kv_dtype = DType::bf16;  // K and V as stored in the cache
};

// Number of (query, key) pairs that attention evaluates per (sequence, head), honouring the
// causal mask and the sliding window.
double attention_pairs(const AttentionOp& a);

struct Op {
  using Shape = std::variant<GemmOp, StreamOp, AttentionOp>;
  Op() = default;
  Op(std::string op_name, std::string klass, Shape op_shape, std::string input = {}, std::string output = {})
      : name(std::move(op_name)), op_class(std::move(klass)), shape(std::move(op_shape)),
        input_tensor(std::move(input)), output_tensor(std::move(output)) {}

  std::string name;    // "layer3.qkv_proj"
  std::string op_class; // "gemm", "attention", "norm", "elementwise", ...
  std::variant<GemmOp, StreamOp, AttentionOp> shape;
  // Tensors, for data reuse between kernels (L2). Empty: the input is the output of the op's
  // first graph predecessor and the output is the op's own. Ops naming the same tensor touch the
  // same bytes (e.g. repeated calls of a measurement on one buffer set).
  std::string input_tensor, output_tensor;
};

// FLOPs and the fewest bytes the op must move through device memory (each input once, each
// output once): the roofline's two numerators.
double op_flops(const Op& op);
double op_min_bytes(const Op& op);

}  // namespace hwsim
