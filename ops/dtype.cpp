#include "ops/dtype.h"

namespace hwsim {

double bytes_per_element(DType t) {
  switch (t) {
    case DType::fp32:
    case DType::tf32: return 4;
    case DType::bf16:
    case DType::fp16: return 2;
    case DType::fp8:
    case DType::int8: return 1;
    case DType::int4: return 0.5;
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
  return std::nullopt;
}

std::vector<std::string> dtype_names() { return {"fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int4"}; }

}  // namespace hwsim
