// Registers the `serve` workload (serve_spec.h): the requests and engine settings; no step graphs
// (the serving runner builds them from each scheduled batch).
#include "workloads/serve/serve_spec.h"
#include "workloads/workload.h"

namespace hwsim {
namespace {

Workload build_serve(const WorkloadSpec& spec) {
  Workload w;
  auto s = std::make_shared<ServeSpec>(parse_serve_spec(spec));
  w.framework = s->framework;
  w.serve = std::move(s);
  return w;
}

HWSIM_REGISTER_WORKLOAD("serve",
                        "requests over time on one serving engine (docs/serving.md): model=, requests=100, "
                        "rate=inf|R (Poisson, requests/s), prompt=128, output=128 (N, uniform:A..B or "
                        "normal:MEAN/STD/MIN..MAX), seed=0, or trace=FILE (CSV/JSONL), or dataset=FILE (lengths sampled at rate=); batching=continuous|static, "
                        "max_batch=256, max_tokens_per_step=2048, chunked_prefill=true, block=16, "
                        "gpu_memory_utilization=0.9, kv_blocks=, context_bucket=16, cuda_graphs=vllm|off|S1/S2/.., "
                        "reuse=true|false|ops, slo_ttft=, "
                        "slo_tpot=, slo_e2el= (times: 200ms); preemption=recompute|swap, swap_space=; speculation draft=MODEL, k=, accept=, "
                        "baseline=true; layout (--system) tp=, dp=, disaggregate=PpDd, prefill_tp=, decode_tp=, "
                        "router=least_loaded|round_robin; dtypes weights=, act=, kv=, kernels=; and any architecture "
                        "field",
                        build_serve);

}  // namespace
}  // namespace hwsim
