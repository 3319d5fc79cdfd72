#pragma once
// Numeric formats a workload can use. int4 is weight-only (two values per byte).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwsim {

enum class DType { fp32, tf32, bf16, fp16, fp8, int8, int4 };
inline constexpr std::size_t kDTypeCount = 7;

double bytes_per_element(DType t);           // fp32/tf32: 4 (tf32 is stored as fp32), int4: 0.5
std::string_view dtype_name(DType t);        // "bf16"
std::optional<DType> parse_dtype(std::string_view name);  // accepts "bfloat16"/"float16"/"float32" too
std::vector<std::string> dtype_names();

}  // namespace hwsim
