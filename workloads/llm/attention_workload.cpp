// attention:batch=B,heads=H,kv_heads=G,head_dim=D,q_len=S,kv_len=L,causal=true|false[,window=W,dtype=..,kv=..,impl=..]
// — one scaled-dot-product attention over a KV cache (AttentionOp in ops/op.h); impl= names the
// implementation (naive, mem_efficient, flash2, flash3, cudnn; auto = what PyTorch's SDPA picks).
#include <fmt/format.h>

#include "sim/error.h"
#include "workloads/llm/llm_run.h"
#include "workloads/workload.h"

namespace hwsim {
namespace {

Workload build_attention(const WorkloadSpec& spec) {
  auto fail = [&](const std::string& what) { workload_error(fmt::format("workload '{}': {}", spec.text(), what)); };
  AttentionOp a;
  a.batch = spec.positive_int("batch", 1);
  a.heads = spec.positive_int("heads");
  a.kv_heads = spec.positive_int("kv_heads", a.heads);
  a.head_dim = spec.positive_int("head_dim", 128);
  a.q_len = spec.positive_int("q_len", 1);
  a.kv_len = spec.positive_int("kv_len");
  a.causal = spec.boolean("causal", true);
  a.window = spec.non_negative_int("window", 0);
  a.dtype = spec.dtype("dtype", DType::bf16);
  a.kv_dtype = spec.dtype("kv", a.dtype);
  a.impl = parse_attention_impl_field(spec, "impl");
  spec.reject_unused({"batch", "heads", "kv_heads", "head_dim", "q_len", "kv_len", "causal", "window", "dtype", "kv",
                      "impl"});
  if (a.heads % a.kv_heads != 0) fail(fmt::format("heads {} is not a multiple of kv_heads {}", a.heads, a.kv_heads));
  if (a.q_len > a.kv_len) fail(fmt::format("q_len {} exceeds kv_len {} (the queries are the last keys)", a.q_len, a.kv_len));
  if (a.dtype == DType::int4 || a.kv_dtype == DType::int4) fail("int4 is weight-only; use dtype/kv = bf16, fp16, fp8");
  Workload w;
  w.steps.push_back(WorkloadStep{"attention", {}});
  Op op;
  op.name = op.op_class = "attention";
  op.shape = a;
  add_op(w.steps.back().graph, std::move(op));
  return w;
}

HWSIM_REGISTER_WORKLOAD("attention",
                        "one attention over a KV cache: batch=1, heads=, kv_heads=heads, head_dim=128, q_len=1, "
                        "kv_len=, causal=true, window=0, dtype=bf16, kv=dtype, "
                        "impl=auto|naive|mem_efficient|flash2|flash3|cudnn",
                        build_attention);

}  // namespace
}  // namespace hwsim
