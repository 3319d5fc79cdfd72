#include "ops/dtype.h"

namespace hwsim {
namespace {

// Block-scaled formats (OCP Microscaling Formats spec v1.0; NVIDIA Blackwell NVFP4): the elements'
// bits plus one shared scale per block, which a GEMM reads along with its block.
constexpr double kFp6BitsPerElement = 6;      // E3M2 or E2M3
constexpr double kMxScaleBytes = 1;           // E8M0 scale
constexpr double kMxBlockElements = 32;       // MX block size
constexpr double kFp4BitsPerElement = 4;      // E2M1
constexpr double kNvfp4ScaleBytes = 1;        // E4M3 scale (the per-tensor fp32 scale is negligible)
constexpr double kNvfp4BlockElements = 16;    // NVFP4 block size

}  // namespace

double bytes_per_element(DType t) {
  switch (t) {
    case DType::fp32:
    case DType::tf32: return 4;
    case DType::bf16:
    case DType::fp16: return 2;
    case DType::fp8:
    case DType::int8: return 1;
    case DType::int4: return 0.5;
    case DType::fp6: return kFp6BitsPerElement / 8 + kMxScaleBytes / kMxBlockElements;
    case DType::fp4: return kFp4BitsPerElement / 8 + kNvfp4ScaleBytes / kNvfp4BlockElements;
  }
  return 0;
}

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::fp32: return "fp32";
    case DType::tf32: return "tf32";
    case DType::bf16: return "bf16";
    case DType::fp16: return "fp16";
    case DType::fp8: return "fp8";
    case DType::int8: return "int8";
    case DType::int4: return "int4";
    case DType::fp6: return "fp6";
    case DType::fp4: return "fp4";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view name) {
  if (name == "fp32" || name == "float32") return DType::fp32;
  if (name == "tf32") return DType::tf32;
  if (name == "bf16" || name == "bfloat16") return DType::bf16;
  if (name == "fp16" || name == "float16") return DType::fp16;
  if (name == "fp8" || name == "float8_e4m3fn" || name == "e4m3") return DType::fp8;
  if (name == "int8") return DType::int8;
  if (name == "int4") return DType::int4;
  if (name == "fp6" || name == "mxfp6" || name == "e3m2" || name == "e2m3") return DType::fp6;
  if (name == "fp4" || name == "nvfp4" || name == "e2m1") return DType::fp4;
  return std::nullopt;
}

std::vector<std::string> dtype_names() { return {"fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int4", "fp6", "fp4"}; }

}  // namespace hwsim
