#pragma once
// One LLM phase request, parsed from a spec: which model (with overrides), which phase, the batch
// and lengths, and the three dtypes. Shapes only: no hardware.
//   decode:model=M,batch=B,context=C      one step; each sequence has C tokens cached, adds one
//   prefill:model=M,batch=B,prompt=P      one step over B·P prompt tokens (causal)
//   generate:model=M,batch=B,prompt=P,output=N   prefill, then N decode steps
// Common fields: weights=, act=, kv= (dtypes; int4 only for weights), kernels=eager|fused|xla,
// the parallel layout tp=, pp=, ep=, dp=, microbatches= (default 1; rules in parallel_layout.h),
// and every architecture field.
#include <cstdint>
#include <string>
#include <vector>

#include "ops/dtype.h"
#include "ops/op.h"
#include "workloads/llm/architecture.h"
#include "workloads/workload.h"

namespace hwsim {

class WorkloadSpec;

struct LlmDtypes {
  DType weights = DType::bf16;  // linear-layer weights (int4: weight-only, dequantised in the GEMM)
  DType act = DType::bf16;      // activations, norm weights, embeddings
  DType kv = DType::bf16;       // K and V as stored in the cache
  // How weight-only formats (weights narrower than act) are dequantised (dequant=fused|separate),
  // and the attention implementation (attention=auto|naive|mem_efficient|flash2|flash3|cudnn).
  Dequant dequant = Dequant::fused;
  AttentionImpl attention = AttentionImpl::automatic;
};

struct LlmRun {
  ModelArchitecture arch;
  std::string phase;            // "decode" | "prefill" | "generate"
  std::int64_t batch = 1;
  std::int64_t context = 0;     // decode: tokens already cached per sequence
  std::int64_t prompt = 0;      // prefill, generate
  std::int64_t output = 0;      // generate: decode steps after the prefill
  LlmDtypes dtypes;
  // Which kernels the software stack launches: a framework pass (workloads/passes) — "eager"
  // (PyTorch eager, as measured), "fused" (a serving engine's fused kernels), "xla"; empty: the
  // device's default (eager on GPUs, xla on TPUs).
  std::string framework;
  // How the run spreads over devices (all 1: one device, today's graphs). `batch` stays the whole
  // run's: each device of a stage works on batch / (dp·ep) sequences (parallel_layout.h).
  Parallelism parallel;
};

// Spec fields shared with the single-op workloads: `key` as an attention implementation
// (auto when absent) or a dequantisation (fused when absent); a bad value is one UserError line.
AttentionImpl parse_attention_impl_field(const WorkloadSpec& spec, const std::string& key);
Dequant parse_dequant_field(const WorkloadSpec& spec, const std::string& key);

// Fields each phase takes (besides the architecture fields).
std::vector<std::string> llm_phase_fields(const std::string& phase);

// Parses `spec` for `phase`; every mistake (unknown model or field, batch 0, negative context, int4
// activations, a parallel layout the model or batch cannot take) is a one-line
// UserError(workload). A context beyond the model's max_context is a warning appended to
// `warnings` (the model was not trained that long), or an error with strict=true.
LlmRun parse_llm_run(const WorkloadSpec& spec, const std::string& phase, std::vector<std::string>* warnings = nullptr);

}  // namespace hwsim
