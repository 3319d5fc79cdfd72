#include "workloads/llm/train_backward.h"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "sim/error.h"

namespace hwsim {

AttentionOp attention_backward_shape(const AttentionOp& f) {
  AttentionOp b = f;
  if (f.head_dim % 2 == 0) {
    b.heads = 5 * f.heads, b.kv_heads = 5 * f.kv_heads, b.head_dim = f.head_dim / 2;
  } else if (f.heads % 2 == 0 && f.kv_heads % 2 == 0) {
    b.heads = 5 * f.heads / 2, b.kv_heads = 5 * f.kv_heads / 2;
  } else if (f.batch % 2 == 0) {
    b.batch = 5 * f.batch / 2;
  } else {
    b.heads = 5 * f.heads, b.kv_heads = 5 * f.kv_heads;  // 5× the forward: no even dimension to halve
  }
  return b;
}

namespace {

Op derived(const Op& f, std::string name, Op::Shape shape) {
  Op op(std::move(name), f.op_class, std::move(shape));
  op.stage = f.stage;
  return op;
}

// The backward GEMMs read the forward's matrices as they lie in memory, transposed: dx = dY·W reads
// W[N,K] as its [K,N]ᵀ operand (pitch K), dW = dYᵀ·X reads dY[M,N] (pitch N) and X[M,K] (pitch K)
// transposed. Their alignment (gemm_alignment.h) follows those pitches: an unaligned vocabulary
// (GPT-2's 50257) misaligns all three of the head's GEMMs, as cuBLAS's align1 kernels show.
void transposed_layouts(const GemmOp& f, GemmOp& dx, GemmOp& dw) {
  const GemmLayout& l = f.layout;
  const std::int64_t x_pitch = l.lda > 0 ? l.lda : f.k, w_pitch = l.ldb > 0 ? l.ldb : f.k;
  const std::int64_t out_pitch = l.ldc > 0 ? l.ldc : f.n;
  // A pitch equal to the packed one stays implicit (a runtime that pads packed rows pads it).
  auto given = [](std::int64_t pitch, std::int64_t packed) { return pitch == packed ? 0 : pitch; };
  dx.layout = GemmLayout{given(out_pitch, dx.k), given(w_pitch, dx.k), given(x_pitch, dx.n),
                         l.offset_c, l.offset_b, l.offset_a};
  dw.layout = GemmLayout{given(out_pitch, dw.k), given(x_pitch, dw.k), given(w_pitch, dw.n),
                         l.offset_c, l.offset_a, l.offset_b};
}

// A norm's γ (and β) gradient: a second kernel (PyTorch's GammaBetaBackward) that sums, per
// column, dY·x̂ (and dY) over every row: it reads the output gradient and the saved input again
// and writes the weights' gradient. A reduction of the rows' bytes into the weights' bytes.
StreamOp norm_weight_gradient(const StreamOp& f) {
  const double rows = f.bytes_written, weights = std::max(0.0, f.bytes_read - f.bytes_written);
  const double e = f.element_bytes > 0 ? f.element_bytes : 4;
  StreamOp g;
  g.bytes_read = 2 * rows, g.bytes_written = weights, g.flops = 2 * rows / e;
  g.element_bytes = e;
  g.rows = std::max<std::int64_t>(1, std::int64_t(weights / e));  // one sum per weight
  return g;
}

CollectiveKind conjugate(CollectiveKind k) {
  switch (k) {
    case CollectiveKind::all_gather: return CollectiveKind::reduce_scatter;
    case CollectiveKind::reduce_scatter: return CollectiveKind::all_gather;
    default: return k;
  }
}

}  // namespace

BackwardOps backward_of(const Op& f, const std::string& prefix) {
  BackwardOps out;
  const std::string name = prefix + f.name;
  std::visit([&](const auto& s) {
    using T = std::decay_t<decltype(s)>;
    if constexpr (std::is_same_v<T, GemmOp>) {
      GemmOp dx = s, dw = s;
      dx.m = s.m, dx.n = s.k, dx.k = s.n;
      dx.a = s.out, dx.b = s.b, dx.out = s.a;
      dw.m = s.n, dw.n = s.k, dw.k = s.m;
      dw.a = s.out, dw.b = s.a, dw.out = s.b;
      transposed_layouts(s, dx, dw);
      out.ops.push_back(derived(f, name + ".dx", dx));
      out.ops.push_back(derived(f, name + ".dw", dw));
      out.grad_input = 0, out.grad_param = 1;
    } else if constexpr (std::is_same_v<T, AttentionOp>) {
      AttentionOp b = attention_backward_shape(s);
      bool exact = b.head_dim * 2 == s.head_dim || b.heads * 2 == s.heads * 5 || b.batch * 2 == s.batch * 5;
      out.ops.push_back(derived(f, exact ? name : name + "(5x)", b));
      out.grad_input = 0;
    } else if constexpr (std::is_same_v<T, StreamOp>) {
      StreamOp b = s;
      b.bytes_read *= kStreamBackwardFactor;
      b.bytes_written *= kStreamBackwardFactor;
      b.flops *= kStreamBackwardFactor;
      out.ops.push_back(derived(f, name, b));
      out.grad_input = 0, out.grad_param = 0;
      if (f.op_class == "norm") {
        Op weight_gradient = derived(f, name + ".grad_weight", norm_weight_gradient(s));
        weight_gradient.op_class = "reduction";
        out.ops.push_back(std::move(weight_gradient));
        out.grad_param = 1;
      }
    } else if constexpr (std::is_same_v<T, CollectiveOp>) {
      if (s.kind == CollectiveKind::all_reduce && s.axis == ParallelAxis::tp) return;  // g: identity backward
      CollectiveOp b = s;
      b.kind = conjugate(s.kind);
      if (b.kind == CollectiveKind::send_recv) b.reverse = !s.reverse;  // the gradient flows back
      out.ops.push_back(derived(f, name, b));
      out.grad_input = 0;
    } else if constexpr (std::is_same_v<T, ConvOp>) {
      workload_error(name + ": a convolution has no backward rule yet (training graphs hold GEMMs, attention and "
                     "stream ops)");
    } else if constexpr (std::is_same_v<T, RecordedOp>) {
      workload_error(name + ": a recorded duration (a trace's) has no backward rule: training graphs are built, not "
                     "replayed");
    } else {
      static_assert(sizeof(T) == 0, "every op shape needs a backward rule");
    }
  }, f.shape);
  return out;
}

}  // namespace hwsim
