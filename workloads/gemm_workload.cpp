// gemm:M=..,N=..,K=..,dtype=..,acc=..,weights=..,dequant=..,quant_kernel=..,lda=..,offset=..,repeat=.. — matrix
// multiplies out[M,N] = x[M,K] · W[N,K]ᵀ.
#include <algorithm>
#include <fmt/format.h>

#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "workloads/llm/llm_run.h"
#include "workloads/workload.h"

namespace hwsim {
namespace {

// The result dtype a library writes for inputs of dtype t: fp8/fp6/fp4 GEMMs write bf16 (cuBLASLt,
// CUTLASS's block-scaled kernels), int8 GEMMs int32; otherwise the input dtype.
DType result_dtype(DType t) {
  if (t == DType::fp8 || t == DType::fp6 || t == DType::fp4) return DType::bf16;
  return t == DType::int8 ? DType::fp32 : t;
}

// acc=fp32 (the default, as cuBLAS computes) or fp16: half-precision accumulate, which tensor
// cores offer for fp16 and fp8 inputs only (PTX mma: f16 accumulators for .f16 and .e4m3/.e5m2).
DType accumulate_dtype(const WorkloadSpec& spec, DType t) {
  DType acc = spec.dtype("acc", DType::fp32);
  if (acc != DType::fp32 && acc != DType::fp16)
    workload_error("workload '" + spec.text() + "': acc: " + std::string(dtype_name(acc)) +
                   " is not an accumulate dtype; valid: fp32, fp16");
  if (acc == DType::fp16 && t != DType::fp16 && t != DType::fp8)
    workload_error("workload '" + spec.text() + "': acc: fp16 accumulate needs dtype=fp16 or fp8 (tensor cores sum " +
                   std::string(dtype_name(t)) + " products in fp32); use acc=fp32");
  return acc;
}

// Calls of one gemm workload: enough for a benchmark loop to reach its steady clock, bounded so a
// typo cannot ask for millions of kernels.
constexpr std::int64_t kMaxRepeat = 10000;
// weights= narrower than dtype= (int4, int8, fp8 weights with 16-bit activations): a weight-only
// GEMM, dequantised as dequant= says.
DType weight_dtype(const WorkloadSpec& spec, DType t) {
  DType w = spec.dtype("weights", t);
  auto fail = [&](const std::string& what) { workload_error("workload '" + spec.text() + "': weights: " + what); };
  if (w == t) return w;
  if (t != DType::bf16 && t != DType::fp16)
    fail(std::string(dtype_name(w)) + " weights need 16-bit activations (dtype=bf16 or fp16), not " +
         std::string(dtype_name(t)));
  if (w != DType::int4 && w != DType::int8 && w != DType::fp8)
    fail(std::string(dtype_name(w)) + " is not a weight-only format; valid: int4, int8, fp8 (or the dtype itself)");
  return w;
}

// Leading dimensions and base offsets (GemmLayout): lda/ldb ≥ K and ldc ≥ N when given; offset=
// moves all three matrices, offset_a/_b/_c one each.
GemmLayout gemm_layout(const WorkloadSpec& spec, const GemmOp& g) {
  GemmLayout l;
  auto pitch = [&](const char* key, std::int64_t at_least, const char* dim) {
    if (!spec.has(key)) return std::int64_t(0);
    std::int64_t v = spec.positive_int(key);
    if (v < at_least)
      workload_error(fmt::format("workload '{}': {}: {} is shorter than a row ({}={}); rows need ld >= {}", spec.text(),
                                 key, v, dim, at_least, dim));
    return v;
  };
  l.lda = pitch("lda", g.k, "K"), l.ldb = pitch("ldb", g.k, "K"), l.ldc = pitch("ldc", g.n, "N");
  std::int64_t offset = spec.non_negative_int("offset", 0);
  l.offset_a = spec.non_negative_int("offset_a", offset);
  l.offset_b = spec.non_negative_int("offset_b", offset);
  l.offset_c = spec.non_negative_int("offset_c", offset);
  return l;
}

// quant_kernel= (a fused weight-only GEMM's kernel): the software facts each kernel carries — what
// weights it unpacks — are checked here; which one `automatic` means is the chip's.
QuantKernel quant_kernel_field(const WorkloadSpec& spec, const GemmOp& g) {
  std::string name = spec.word("quant_kernel", "auto");
  const std::vector<std::string> valid = {"auto", "tinygemm", "marlin", "int8pack"};
  auto fail = [&](const std::string& what) { workload_error("workload '" + spec.text() + "': quant_kernel: " + what); };
  if (std::find(valid.begin(), valid.end(), name) == valid.end())
    fail("'" + name + "' is not a fused weight-only kernel; valid: auto (the chip's), tinygemm, marlin, int8pack" +
         did_you_mean(name, valid));
  if (name == "auto") return QuantKernel::automatic;
  if (g.b == g.a || g.dequant != Dequant::fused)  // weight_dtype(): b differs only when weight-only
    fail(name + " is a fused weight-only kernel: it needs weights narrower than dtype (weights=int4|int8|fp8) and "
                "dequant=fused");
  if (name == "int8pack" && g.b != DType::int8)
    fail("int8pack (PyTorch's _weight_int8pack_mm) multiplies int8 weights, not " + std::string(dtype_name(g.b)) +
         "; use weights=int8 or quant_kernel=tinygemm|marlin");
  if (name == "tinygemm") return QuantKernel::tinygemm;
  if (name == "marlin") return QuantKernel::marlin;
  return QuantKernel::int8pack;
}

// scale=none|block|mx: per-block scales of fp8 operands applied in the main loop (ops/op.h
// BlockScale); `none` covers a scale per tensor or per row/column (epilogue). fp4/fp6 carry their
// scales in the format, so only fp8 takes the key.
BlockScale block_scale_field(const WorkloadSpec& spec, DType t) {
  std::string name = spec.word("scale", "none");
  const std::vector<std::string> valid = {"none", "block", "mx"};
  if (std::find(valid.begin(), valid.end(), name) == valid.end())
    workload_error("workload '" + spec.text() + "': scale: '" + name +
                   "' is not a scaling; valid: none (per tensor or row), block (1x128 x 128x128, DeepGEMM), mx "
                   "(MXFP8, 1x32 E8M0)" + did_you_mean(name, valid));
  if (name == "none") return BlockScale::none;
  if (t != DType::fp8)
    workload_error("workload '" + spec.text() + "': scale: " + name + " scales fp8 operands, not " +
                   std::string(dtype_name(t)) + " (fp4 and fp6 carry their block scales in the format); use dtype=fp8");
  return name == "block" ? BlockScale::block128 : BlockScale::mx32;
}

Workload build_gemm(const WorkloadSpec& spec) {
  GemmOp g;
  g.m = spec.positive_int("M");
  g.n = spec.positive_int("N");
  g.k = spec.positive_int("K");
  DType t = spec.dtype("dtype", DType::bf16);
  if (t == DType::int4)
    workload_error("workload '" + spec.text() + "': dtype: int4 is weight-only (use dtype=bf16,weights=int4); "
                   "valid here: bf16, fp16, fp32, tf32, fp8, int8, fp6, fp4");
  g.a = t;
  g.b = weight_dtype(spec, t);
  g.out = result_dtype(t);
  g.acc = accumulate_dtype(spec, t);
  g.dequant = parse_dequant_field(spec, "dequant");
  g.quant_kernel = quant_kernel_field(spec, g);
  g.scale = block_scale_field(spec, t);
  g.layout = gemm_layout(spec, g);
  std::int64_t repeat = spec.positive_int("repeat", 1, kMaxRepeat);
  spec.reject_unused({"M", "N", "K", "dtype", "acc", "weights", "dequant", "quant_kernel", "scale", "lda", "ldb", "ldc", "offset",
                      "offset_a", "offset_b", "offset_c", "repeat"});
  Workload w;
  w.steps.push_back(WorkloadStep{"gemm", {}});
  // `repeat` calls one after another, each on buffers of its own (no tensor names, no edges): a
  // benchmark loop rotating buffer sets past the L2, as the measurements do.
  for (std::int64_t r = 0; r < repeat; ++r)
    add_op(w.steps.back().graph, Op{repeat > 1 ? "gemm#" + std::to_string(r) : "gemm", "gemm", g});
  return w;
}

HWSIM_REGISTER_WORKLOAD("gemm",
                        "one matrix multiply out = x·Wᵀ: M, N, K, dtype=bf16|fp16|fp32|tf32|fp8|int8|fp6|fp4, "
                        "acc=fp32|fp16 (fp16 accumulate: dtype fp16 or fp8), weights=dtype|int4|int8|fp8 (weight-only "
                        "with 16-bit dtype), dequant=fused|separate|eager, quant_kernel=auto|tinygemm|marlin|int8pack (the fused "
                        "kernel), scale=none|block|mx (fp8 per-block scales: 1x128 x 128x128, MXFP8), "
                        "lda=, ldb=, ldc= (row pitches in elements), "
                        "offset=, offset_a=, offset_b=, offset_c= (base offsets in elements), repeat=1 (calls one "
                        "after another, each on its own buffers)",
                        build_gemm);

}  // namespace
}  // namespace hwsim
