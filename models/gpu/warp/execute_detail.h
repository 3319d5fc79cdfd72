#pragma once
// Internals shared by the functional semantics' files (execute.cpp: dispatch and control;
// execute_memory.cpp: loads, stores and atomics; execute_values.cpp: conversions, bit operations,
// votes and shuffles). Not part of the warp model's interface.
#include <bit>
#include <cstdint>
#include <type_traits>

#include "models/gpu/warp/execute.h"

namespace hwsim::warp::detail {

// Operand `o`'s value in `lane`.
std::uint64_t read_operand(const WarpState& w, const Operand& o, int lane, const ExecContext& ctx);

// An operand's 32 lanes: a register's own array, or immediates and special registers written into `tmp`.
const std::uint64_t* operand_lanes(const WarpState& w, const Operand& o, const ExecContext& ctx, std::uint64_t* tmp);

[[noreturn]] void access_error(const ExecContext& ctx, const WarpState& w, const Instr& in, int lane,
                               std::uint64_t addr, int bytes, const char* what);

// A register's raw bits as T, and T back to raw bits: floats by their bit patterns; integers of
// 32 bits or fewer as 32 bits (sign- or zero-extended as T is), 64-bit ones whole.
template <class T> T as(std::uint64_t b) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>(std::uint32_t(b));
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<double>(b);
  else return T(b);
}
template <class T> std::uint64_t raw(T v) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<std::uint32_t>(v);
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<std::uint64_t>(v);
  else if constexpr (sizeof(T) <= 4) return std::uint32_t(std::conditional_t<std::is_signed_v<T>, std::int32_t, std::uint32_t>(v));
  else return std::uint64_t(v);
}

// A value of `t` held in a register's raw bits, widened to a double (floats, f16 and bf16 too) or,
// for integers, to 64 bits sign- or zero-extended.
double to_double(Type t, std::uint64_t v);
std::int64_t to_int64(Type t, std::uint64_t v);
// Raw bits of `x` as type `t` (floats rounded to nearest even, integers wrapped).
std::uint64_t from_int64(Type t, std::int64_t x);

// cvt: `v` of `in.src_type` to `in.type` with the instruction's rounding, integral rounding and
// saturation.
std::uint64_t convert(const Instr& in, std::uint64_t v);

// Instructions over values that are not a plain lane function: bit field and permutation
// operations, f16/bf16 scalars, funnel shifts, votes, shuffles. Write the destinations of the
// lanes in `mask`.
void exec_values(WarpState& w, const Instr& in, const ExecContext& ctx, std::uint32_t mask);

// ld, st and the atomic family in any space; fills the access's addresses into `fx`.
void exec_memory(WarpState& w, const Instr& in, const ExecContext& ctx, std::uint32_t mask, Effects& fx);

// The matrix instructions (execute_tensor.cpp): mma.sync of every supported shape (all 32 lanes),
// ldmatrix (fills fx with its row addresses), wgmma.mma_async (the warp's 16 rows of the
// warpgroup's tile), cp.async (copies at once; fx holds the global reads of the lanes with bytes to
// read).
void exec_mma(WarpState& w, const Instr& in, const ExecContext& ctx);
void exec_ldmatrix(WarpState& w, const Instr& in, const ExecContext& ctx, std::uint32_t mask, Effects& fx);
void exec_wgmma(WarpState& w, const Instr& in, const ExecContext& ctx);
void exec_cp_async(WarpState& w, const Instr& in, const ExecContext& ctx, std::uint32_t mask, Effects& fx);

}  // namespace hwsim::warp::detail
