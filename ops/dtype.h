#pragma once
// Numeric formats a workload can use. int4 is weight-only (two values per byte). fp6 and fp4 are
// the Blackwell block-scaled formats: their bytes per element include the block scales (below).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwsim {

// Append new formats at the end: arrays indexed by DType (peak rates, chip rate tables) and
// result documents keep the earlier indices.
enum class DType { fp32, tf32, bf16, fp16, fp8, int8, int4, fp6, fp4 };
inline constexpr std::size_t kDTypeCount = 9;

// Bytes one element occupies in memory, block scales included:
//   fp32/tf32 4 (tf32 is stored as fp32), bf16/fp16 2, fp8/int8 1, int4 0.5 (scales not counted),
//   fp6 0.78125 = 6 bits + one 8-bit E8M0 scale per 32 elements (OCP MXFP6, E3M2 or E2M3),
//   fp4 0.5625  = 4 bits + one 8-bit E4M3 scale per 16 elements (NVIDIA NVFP4, E2M1).
double bytes_per_element(DType t);
std::string_view dtype_name(DType t);        // "bf16"
std::optional<DType> parse_dtype(std::string_view name);  // also "bfloat16", "float16", "float32", "nvfp4", "e2m1", "mxfp6", "e3m2", "e2m3"
std::vector<std::string> dtype_names();

}  // namespace hwsim
