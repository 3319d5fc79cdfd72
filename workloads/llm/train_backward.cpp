#include "workloads/llm/train_backward.h"

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
