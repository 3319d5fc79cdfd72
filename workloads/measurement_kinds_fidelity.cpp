// Measurement kinds of the fidelity campaign (scripts/measure/campaign/fidelity.py): each
// contrast's records as workload specs.
//  - attention_backend: one SDPA call under sdpa_kernel(backend) → attention:...,impl=
//  - quant_gemm: a linear layer by implementation (cuBLAS bf16, tinygemm int4, int4 dequantised
//    then cuBLAS, int8 cast·scale then cuBLAS, _int_mm, _scaled_mm, _weight_int8pack_mm's
//    one-thread-per-output kernel: quant_kernel=int8pack) → gemm:.
//  - gemm_alignment: torch.matmul(x, W.t()) with odd sizes or 2-byte-offset operands → gemm:
//  - elementwise_op: softmax (fused, five ops), GELU, transpose, fill → elementwise:
// Every record was timed as calls rotating over buffer sets larger than L2 (common.py nbuf_for),
// so each prediction is of one call whose operands come from memory. Records of these kinds with
// missing or ill-typed fields, or of variants no workload spells, are skipped (nullopt).
#include <fmt/format.h>

#include "sim/measurement/measurement.h"
#include "sim/measurement/record_fields.h"
#include "ops/dtype.h"

namespace hwsim {
namespace {

std::optional<std::string> dtype_of(const nlohmann::json& r, const char* key) {
  auto s = field_text(r, key);
  if (!s) return std::nullopt;
  auto t = parse_dtype(*s);
  if (!t) return std::nullopt;
  return std::string(dtype_name(*t));
}

// SDPA backend names (torch.nn.attention.SDPBackend) → attention implementations.
std::optional<std::string> impl_of_backend(const std::string& backend) {
  if (backend == "MATH") return "naive";
  if (backend == "FLASH_ATTENTION") return "flash2";
  if (backend == "EFFICIENT_ATTENTION") return "mem_efficient";
  if (backend == "CUDNN_ATTENTION") return "cudnn";
  return std::nullopt;
}

std::optional<PredictionPlan> attention_backend_plan(const Measurement& m) {
  const auto& r = m.fields;
  auto B = field_whole(r, "B"), Hq = field_whole(r, "Hq"), Hkv = field_whole(r, "Hkv"), Sq = field_whole(r, "S_q"), Skv = field_whole(r, "S_kv");
  auto D = field_whole(r, "D");
  auto dtype = dtype_of(r, "dtype");
  auto backend = field_text(r, "backend");
  if (!B || !Hq || !Hkv || !Sq || !Skv || !D || !dtype || !backend || !r.contains("causal") || !r["causal"].is_boolean())
    return std::nullopt;
  auto impl = impl_of_backend(*backend);
  if (!impl) return std::nullopt;
  return PredictionPlan{fmt::format("attention:batch={},heads={},kv_heads={},head_dim={},q_len={},kv_len={},causal={},"
                                    "dtype={},impl={}",
                                    *B, *Hq, *Hkv, *D, *Sq, *Skv, r["causal"].get<bool>(), *dtype, *impl)};
}

// quant_gemm `impl` → the gemm: fields that spell it (M may be padded: _scaled_mm's M_padded).
std::optional<std::string> quant_fields(const nlohmann::json& r) {
  auto impl = field_text(r, "impl");
  if (!impl) return std::nullopt;
  if (*impl == "cublas") return "dtype=bf16";
  if (*impl == "tinygemm") return "dtype=bf16,weights=int4,dequant=fused";
  if (*impl == "triton-dequant+cublas" || *impl == "eager-dequant+cublas") return "dtype=bf16,weights=int4,dequant=separate";
  if (*impl == "eager-cast-mul+cublas") return "dtype=bf16,weights=int8,dequant=eager";
  if (*impl == "weight_int8pack_mm") return "dtype=bf16,weights=int8,dequant=fused,quant_kernel=int8pack";
  if (*impl == "int_mm") return "dtype=int8";
  if (*impl == "scaled_mm") return "dtype=fp8";
  return std::nullopt;
}

std::optional<PredictionPlan> quant_gemm_plan(const Measurement& m) {
  const auto& r = m.fields;
  auto M = field_whole(r, "M"), N = field_whole(r, "N"), K = field_whole(r, "K");
  auto fields = quant_fields(r);
  if (!M || !N || !K || !fields) return std::nullopt;
  if (auto padded = field_whole(r, "M_padded")) M = padded;
  return PredictionPlan{fmt::format("gemm:M={},N={},K={},{}", *M, *N, *K, *fields)};
}

// offset_operand x / w / both: that matrix starts offset_elems elements past an aligned base.
std::optional<PredictionPlan> gemm_alignment_plan(const Measurement& m) {
  const auto& r = m.fields;
  auto M = field_whole(r, "M"), N = field_whole(r, "N"), K = field_whole(r, "K"), offset = field_whole(r, "offset_elems");
  auto dtype = dtype_of(r, "dtype");
  auto operand = field_text(r, "offset_operand");
  if (!M || !N || !K || !dtype || !offset || !operand) return std::nullopt;
  std::string spec = fmt::format("gemm:M={},N={},K={},dtype={}", *M, *N, *K, *dtype);
  if (*offset > 0 && (*operand == "x" || *operand == "both")) spec += fmt::format(",offset_a={}", *offset);
  if (*offset > 0 && (*operand == "w" || *operand == "both")) spec += fmt::format(",offset_b={}", *offset);
  return PredictionPlan{spec};
}

// The third of four calls rotating over four buffer sets (the step's end, which writes back what is
// still dirty in L2, falls on the fourth): the seconds of that call's kernels.
double third_call_seconds(const nlohmann::json& document) {
  double seconds = 0;
  for (const auto& k : document["result"]["steps"][0]["kernels"]) {
    std::string name = k["name"].get<std::string>();
    if (name.find("#2") != std::string::npos) seconds += k["seconds"].get<double>();
  }
  return seconds;
}

std::optional<PredictionPlan> elementwise_op_plan(const Measurement& m) {
  const auto& r = m.fields;
  auto op = field_text(r, "op");
  auto rows = field_whole(r, "rows"), cols = field_whole(r, "cols"), numel = field_whole(r, "numel");
  auto dtype = dtype_of(r, "dtype");
  if (!op || !rows || !cols || !numel || !dtype) return std::nullopt;
  std::string what;
  if (*op == "softmax") what = "op=softmax";
  else if (*op == "softmax_unfused5") what = "op=softmax,impl=unfused";
  else if (*op == "gelu_erf" || *op == "gelu_tanh") what = "op=gelu";
  else if (*op == "transpose") what = "op=transpose";
  else if (*op == "fill") what = "op=fill";
  else return std::nullopt;
  // A fill is of a flat buffer: one row of numel elements.
  std::int64_t T = *op == "fill" ? 1 : *rows, D = *op == "fill" ? *numel : *cols;
  return PredictionPlan{fmt::format("elementwise:{},T={},D={},dtype={},repeat=4,buffers=4", what, T, D, *dtype),
                        third_call_seconds};
}

HWSIM_REGISTER_MEASUREMENT("attention_backend", "PyTorch SDPA with a chosen backend (flash, memory-efficient, cuDNN, math)", attention_backend_plan);
HWSIM_REGISTER_MEASUREMENT("quant_gemm", "a weight-only or fp8 quantised GEMM as a framework runs it", quant_gemm_plan);
HWSIM_REGISTER_MEASUREMENT("gemm_alignment", "a GEMM with unaligned leading dimensions or base offsets", gemm_alignment_plan);
HWSIM_REGISTER_MEASUREMENT("elementwise_op", "one elementwise or reduction kernel (softmax, transpose, cast, ...) on [T, D]", elementwise_op_plan);

}  // namespace
}  // namespace hwsim
