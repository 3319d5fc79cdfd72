#include "models/gpu/warp/execute.h"
#include "models/gpu/warp/execute_detail.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <fmt/format.h>

#include "sim/error.h"

namespace hwsim::warp {

float half_to_float(std::uint16_t h) {
  std::uint32_t sign = std::uint32_t(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 0) {
    float v = std::ldexp(float(man), -24);
    return sign ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}

std::uint16_t float_to_half(float f) {
  std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  std::uint16_t sign = std::uint16_t((x >> 16) & 0x8000);
  float a = std::fabs(f);
  if (std::isnan(f)) return sign | 0x7e00;
  if (a >= 65520.f) return sign | 0x7c00;
  if (a < 6.103515625e-05f) return sign | std::uint16_t(std::nearbyint(a * 16777216.f));  // subnormal
  std::uint32_t ax = std::bit_cast<std::uint32_t>(a);
  std::uint32_t rounded = ax + 0xfff + ((ax >> 13) & 1);  // round to nearest even at bit 13
  return sign | std::uint16_t(((rounded >> 13) - (112 << 10)) & 0x7fff);
}

float bf16_to_float(std::uint16_t h) { return std::bit_cast<float>(std::uint32_t(h) << 16); }

std::uint16_t float_to_bf16(float f) {
  std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if (std::isnan(f)) return std::uint16_t((x >> 16) | 0x40);
  return std::uint16_t((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

namespace detail {

[[noreturn]] void access_error(const ExecContext& ctx, const WarpState& w, const Instr& in, int lane,
                               std::uint64_t addr, int bytes, const char* what) {
  std::uint64_t thread = std::uint64_t(w.warp_in_cta) * 32 + std::uint64_t(lane);
  workload_error(fmt::format("kernel {}: {} at {}:{} `{}`: block {}, thread {} (warp {}, lane {}), address {:#x} ({} bytes)",
                             ctx.program->name, what, ctx.program->file, in.line, in.text, w.cta_id, thread,
                             w.warp_in_cta, lane, addr, bytes));
}

namespace {
// Component `dim` of a linear index within extents `ext` (x fastest, as CUDA numbers threads and blocks).
std::uint64_t component(std::uint64_t linear, const std::uint32_t* ext, std::uint64_t total, int dim) {
  const std::uint64_t x = ext[0] ? ext[0] : total, y = ext[1] ? ext[1] : 1;
  if (dim == 0) return linear % x;
  if (dim == 1) return linear / x % y;
  return linear / (x * y);
}
std::uint64_t extent(const std::uint32_t* ext, std::uint64_t total, int dim) {
  return dim == 0 ? (ext[0] ? ext[0] : total) : ext[dim];
}
}  // namespace

std::uint64_t read_operand(const WarpState& w, const Operand& o, int lane, const ExecContext& ctx) {
  switch (o.kind) {
    case Operand::k_reg: return w.regs[std::size_t(o.reg) * 32 + std::size_t(lane)];
    case Operand::k_imm: return o.bits;
    case Operand::k_special: {
      const std::uint32_t below = lane == 0 ? 0u : (0xffffffffu >> (32 - lane));
      switch (o.special) {
        case Special::tid:
          return component(std::uint64_t(w.warp_in_cta) * 32 + std::uint64_t(lane), ctx.block_dim, ctx.ntid, o.dim);
        case Special::ntid: return extent(ctx.block_dim, ctx.ntid, o.dim);
        case Special::ctaid: return component(w.cta_id, ctx.grid_dim, ctx.nctaid, o.dim);
        case Special::nctaid: return extent(ctx.grid_dim, ctx.nctaid, o.dim);
        case Special::laneid: return std::uint64_t(lane);
        case Special::warpid: return std::uint64_t(w.warp_in_cta);
        case Special::clock: return std::uint64_t(ctx.now);
        case Special::lanemask_lt: return below;
        case Special::lanemask_le: return below | (1u << lane);
        case Special::lanemask_eq: return 1u << lane;
        case Special::lanemask_ge: return ~below;
        case Special::lanemask_gt: return ~below & ~(1u << lane);
      }
      return 0;
    }
    default: return 0;
  }
}

const std::uint64_t* operand_lanes(const WarpState& w, const Operand& o, const ExecContext& ctx, std::uint64_t* tmp) {
  if (o.kind == Operand::k_reg) return &w.regs[std::size_t(o.reg) * 32];
  if (o.kind == Operand::k_imm) std::fill(tmp, tmp + 32, o.bits);
  else for (int lane = 0; lane < 32; ++lane) tmp[lane] = read_operand(w, o, lane, ctx);
  return tmp;
}

}  // namespace detail

namespace {
using detail::as;
using detail::raw;
using detail::read_operand;
using detail::operand_lanes;

inline float f32(std::uint64_t b) { return std::bit_cast<float>(std::uint32_t(b)); }
inline std::uint64_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }

// Integer arithmetic wraps around in two's complement as on the GPU: computed on the unsigned
// type, never as C++ signed overflow (undefined). Floats pass through.
template <class T> struct Wrap { using type = T; };
template <class T> requires std::is_integral_v<T> struct Wrap<T> { using type = std::make_unsigned_t<T>; };

template <class T> std::uint64_t arith(Op op, std::uint64_t ra, std::uint64_t rb, std::uint64_t rc, bool& ok) {
  T a = as<T>(ra), b = as<T>(rb), c = as<T>(rc);
  constexpr bool is_f = std::is_floating_point_v<T>;
  using W = typename Wrap<T>::type;
  switch (op) {
    case Op::mov: return raw<T>(a);
    case Op::add: return raw<T>(T(W(a) + W(b)));
    case Op::sub: return raw<T>(T(W(a) - W(b)));
    case Op::mul: return raw<T>(T(W(a) * W(b)));
    case Op::mad: return raw<T>(T(W(a) * W(b) + W(c)));
    case Op::fma: if constexpr (is_f) return raw<T>(std::fma(a, b, c)); else return raw<T>(T(W(a) * W(b) + W(c)));
    case Op::div:
      if constexpr (is_f) return raw<T>(a / b);
      else {
        if (b == 0) { ok = false; return 0; }
        if constexpr (std::is_signed_v<T>) if (b == T(-1)) return raw<T>(T(W(0) - W(a)));  // INT_MIN / -1 wraps
        return raw<T>(T(a / b));
      }
    case Op::rem:
      if constexpr (is_f) return 0;
      else {
        if (b == 0) { ok = false; return 0; }
        if constexpr (std::is_signed_v<T>) if (b == T(-1)) return 0;  // INT_MIN % -1 traps on x86
        return raw<T>(T(a % b));
      }
    case Op::min: if constexpr (is_f) return raw<T>(std::fmin(a, b)); else return raw<T>(a < b ? a : b);
    case Op::max: if constexpr (is_f) return raw<T>(std::fmax(a, b)); else return raw<T>(a > b ? a : b);
    case Op::neg: if constexpr (is_f) return raw<T>(T(-a)); else return raw<T>(T(W(0) - W(a)));
    case Op::abs: if constexpr (is_f) return raw<T>(std::fabs(a)); else return raw<T>(a < 0 ? T(W(0) - W(a)) : a);
    case Op::shl: if constexpr (is_f) return 0; else { unsigned s = unsigned(rb & 0xff); return s >= sizeof(T) * 8 ? 0 : raw<T>(T(W(a) << s)); }
    case Op::shr:
      if constexpr (is_f) return 0;
      else { unsigned s = unsigned(rb & 0xff); if (s >= sizeof(T) * 8) return raw<T>(a < 0 ? T(-1) : T(0)); return raw<T>(T(a >> s)); }
    case Op::and_: if constexpr (is_f) return 0; else return raw<T>(T(a & b));
    case Op::or_: if constexpr (is_f) return 0; else return raw<T>(T(a | b));
    case Op::xor_: if constexpr (is_f) return 0; else return raw<T>(T(a ^ b));
    case Op::not_: if constexpr (is_f) return 0; else return raw<T>(T(~a));
    case Op::ex2: if constexpr (is_f) return raw<T>(std::exp2(a)); else return 0;
    case Op::lg2: if constexpr (is_f) return raw<T>(std::log2(a)); else return 0;
    case Op::rcp: if constexpr (is_f) return raw<T>(T(1) / a); else return 0;
    case Op::sqrt: if constexpr (is_f) return raw<T>(std::sqrt(a)); else return 0;
    case Op::rsqrt: if constexpr (is_f) return raw<T>(T(1) / std::sqrt(a)); else return 0;
    case Op::sin: if constexpr (is_f) return raw<T>(std::sin(a)); else return 0;
    case Op::cos: if constexpr (is_f) return raw<T>(std::cos(a)); else return 0;
    case Op::tanh: if constexpr (is_f) return raw<T>(std::tanh(a)); else return 0;
    case Op::copysign: if constexpr (is_f) return raw<T>(std::copysign(b, a)); else return 0;
    default: return 0;
  }
}

template <class T> bool compare(Cmp c, std::uint64_t ra, std::uint64_t rb) {
  T a = as<T>(ra), b = as<T>(rb);
  bool unordered = false;
  if constexpr (std::is_floating_point_v<T>) unordered = std::isnan(a) || std::isnan(b);
  switch (c) {
    case Cmp::equ: return unordered || a == b;
    case Cmp::neu: return unordered || a != b;
    case Cmp::ltu: return unordered || a < b;
    case Cmp::leu: return unordered || a <= b;
    case Cmp::gtu: return unordered || a > b;
    case Cmp::geu: return unordered || a >= b;
    case Cmp::num: return !unordered;
    case Cmp::nan: return unordered;
    case Cmp::eq: return a == b;
    case Cmp::ne: return a != b;
    case Cmp::lt: return a < b;
    case Cmp::le: return a <= b;
    case Cmp::gt: return a > b;
    case Cmp::ge: return a >= b;
  }
  return false;
}

std::uint64_t pair_arith(Op op, Type t, std::uint64_t ra, std::uint64_t rb, std::uint64_t rc) {
  auto get = [&](std::uint64_t r, int k) {
    std::uint16_t h = std::uint16_t(r >> (16 * k));
    return t == Type::f16x2 ? half_to_float(h) : bf16_to_float(h);
  };
  std::uint64_t out = 0;
  for (int k = 0; k < 2; ++k) {
    float a = get(ra, k), b = get(rb, k), c = get(rc, k), r = a;
    if (op == Op::add) r = a + b;
    else if (op == Op::mul) r = a * b;
    else if (op == Op::fma) r = std::fma(a, b, c);
    std::uint16_t h = t == Type::f16x2 ? float_to_half(r) : float_to_bf16(r);
    out |= std::uint64_t(h) << (16 * k);
  }
  return out;
}

// f16 or bf16 scalar arithmetic (PTX .f16 / .bf16), computed in f32 and rounded back.
std::uint64_t half_arith(Op op, Type t, std::uint64_t ra, std::uint64_t rb, std::uint64_t rc) {
  auto get = [&](std::uint64_t r) {
    return t == Type::f16 ? half_to_float(std::uint16_t(r)) : bf16_to_float(std::uint16_t(r));
  };
  bool unused = true;
  std::uint64_t r = arith<float>(op, bits(get(ra)), bits(get(rb)), bits(get(rc)), unused);
  return t == Type::f16 ? float_to_half(f32(r)) : float_to_bf16(f32(r));
}

// .sat on a float result: clamped to [0, 1], NaN to 0.
std::uint64_t saturate_unit(Type t, std::uint64_t v) {
  double x = detail::to_double(t, v);
  double c = std::isnan(x) ? 0.0 : std::clamp(x, 0.0, 1.0);
  if (c == x) return v;
  return detail::from_int64(t, c == 0.0 ? 0 : 1);
}

// ---- lane functions: one instruction over 32 lanes, opcode and type fixed at compile time, so
// the lane loop has no switch in it and the compiler can vectorise it. Inactive lanes are computed
// too and then discarded (blend), except where a lane could fault or call the math library.

inline void blend(std::uint64_t* d, const std::uint64_t* r, std::uint32_t mask) {
  if (mask == 0xffffffffu) {
    for (int l = 0; l < 32; ++l) d[l] = r[l];
  } else {
    for (int l = 0; l < 32; ++l) d[l] = (mask >> l & 1) ? r[l] : d[l];
  }
}

template <Op op> constexpr bool per_active_lane() {
  return op == Op::div || op == Op::rem || op == Op::ex2 || op == Op::lg2 || op == Op::sqrt || op == Op::rsqrt ||
         op == Op::sin || op == Op::cos || op == Op::tanh;
}

template <class T, Op op>
void alu_lanes(std::uint64_t* d, const std::uint64_t* A, const std::uint64_t* B, const std::uint64_t* C,
               std::uint32_t mask, bool& ok) {
  if constexpr (per_active_lane<op>()) {
    for (std::uint32_t m = mask; m; m &= m - 1) {
      int l = std::countr_zero(m);
      d[l] = arith<T>(op, A[l], B[l], C[l], ok);
    }
  } else {
    std::uint64_t r[32];
    bool unused = true;
    for (int l = 0; l < 32; ++l) r[l] = arith<T>(op, A[l], B[l], C[l], unused);
    blend(d, r, mask);
  }
}

// f32 fma: std::fma is a library call unless the CPU's FMA instructions are enabled; where the
// CPU has them, a copy compiled for them runs all 32 lanes in vector instructions (the same bits:
// a fused multiply-add is rounded once either way), else only the active lanes call the library.
#if defined(__x86_64__) && defined(__GNUC__)
#define HWSIM_HAVE_FMA_CLONE 1
__attribute__((target("avx2,fma"))) void fma_f32_vector(std::uint64_t* d, const std::uint64_t* A, const std::uint64_t* B,
                                                   const std::uint64_t* C, std::uint32_t mask, bool&) {
  std::uint64_t r[32];
  for (int l = 0; l < 32; ++l)
    r[l] = std::bit_cast<std::uint32_t>(__builtin_fmaf(f32(A[l]), f32(B[l]), f32(C[l])));
  blend(d, r, mask);
}
#endif

void fma_f32_active(std::uint64_t* d, const std::uint64_t* A, const std::uint64_t* B, const std::uint64_t* C,
                    std::uint32_t mask, bool&) {
  for (std::uint32_t m = mask; m; m &= m - 1) {
    int l = std::countr_zero(m);
    d[l] = bits(std::fma(f32(A[l]), f32(B[l]), f32(C[l])));
  }
}

LaneFn fma_f32() {
#ifdef HWSIM_HAVE_FMA_CLONE
  if (__builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2")) return &fma_f32_vector;
#endif
  return &fma_f32_active;
}

template <Op op>
void pred_lanes(std::uint64_t* d, const std::uint64_t* A, const std::uint64_t* B, const std::uint64_t* C,
                std::uint32_t mask, bool& ok) {
  std::uint64_t r[32];
  bool unused = true;
  for (int l = 0; l < 32; ++l) r[l] = arith<std::uint32_t>(op, A[l], B[l], C[l], unused) & 1;
  blend(d, r, mask);
  (void)ok;
}

template <bool is_signed, bool add>
void wide_lanes(std::uint64_t* d, const std::uint64_t* A, const std::uint64_t* B, const std::uint64_t* C,
                std::uint32_t mask, bool&) {
  std::uint64_t r[32];
  for (int l = 0; l < 32; ++l) {
    std::int64_t x = is_signed ? std::int64_t(std::int32_t(std::uint32_t(A[l]))) : std::int64_t(std::uint32_t(A[l]));
    std::int64_t y = is_signed ? std::int64_t(std::int32_t(std::uint32_t(B[l]))) : std::int64_t(std::uint32_t(B[l]));
    r[l] = std::uint64_t(x * y) + (add ? C[l] : 0);
  }
  blend(d, r, mask);
}

template <class T, Cmp c>
void setp_lanes(std::uint64_t* d, const std::uint64_t* A, const std::uint64_t* B, const std::uint64_t*,
                std::uint32_t mask, bool&) {
  std::uint64_t r[32];
  for (int l = 0; l < 32; ++l) r[l] = compare<T>(c, A[l], B[l]);
  blend(d, r, mask);
}

#define HWSIM_ALU_OPS(X) \
  X(mov) X(add) X(sub) X(mul) X(mad) X(fma) X(div) X(rem) X(min) X(max) X(neg) X(abs) X(shl) X(shr) X(and_) \
  X(or_) X(xor_) X(not_) X(ex2) X(lg2) X(rcp) X(sqrt) X(rsqrt) X(sin) X(cos) X(tanh) X(copysign)

template <class T> LaneFn alu_for(Op op) {
  switch (op) {
#define HWSIM_CASE(o) case Op::o: return &alu_lanes<T, Op::o>;
    HWSIM_ALU_OPS(HWSIM_CASE)
#undef HWSIM_CASE
    default: return nullptr;
  }
}

LaneFn pred_for(Op op) {
  switch (op) {
#define HWSIM_CASE(o) case Op::o: return &pred_lanes<Op::o>;
    HWSIM_ALU_OPS(HWSIM_CASE)
#undef HWSIM_CASE
    default: return nullptr;
  }
}

template <class T> LaneFn setp_for(Cmp c) {
  switch (c) {
    case Cmp::eq: return &setp_lanes<T, Cmp::eq>;
    case Cmp::ne: return &setp_lanes<T, Cmp::ne>;
    case Cmp::lt: return &setp_lanes<T, Cmp::lt>;
    case Cmp::le: return &setp_lanes<T, Cmp::le>;
    case Cmp::gt: return &setp_lanes<T, Cmp::gt>;
    case Cmp::ge: return &setp_lanes<T, Cmp::ge>;
    default: return nullptr;  // the unordered and NaN tests: execute()'s own loop
  }
}

LaneFn lane_function(const Instr& in) {
  if (in.op == Op::setp) {
    switch (in.type) {
      case Type::f32: return setp_for<float>(in.cmp);
      case Type::s32: return setp_for<std::int32_t>(in.cmp);
      case Type::u64: return setp_for<std::uint64_t>(in.cmp);
      case Type::s64: return setp_for<std::int64_t>(in.cmp);
      case Type::f64: return setp_for<double>(in.cmp);
      case Type::u32: return setp_for<std::uint32_t>(in.cmp);
      default: return nullptr;  // narrow and half types: execute()'s own loop
    }
  }
  if (in.wide) {
    if ((in.op != Op::mul && in.op != Op::mad) || type_bytes(in.type) != 4) return nullptr;
    bool add = in.op == Op::mad;
    if (in.type == Type::s32) return add ? &wide_lanes<true, true> : &wide_lanes<true, false>;
    return add ? &wide_lanes<false, true> : &wide_lanes<false, false>;
  }
  if (in.sat) return nullptr;
  switch (in.type) {
    case Type::f32: return in.op == Op::fma ? fma_f32() : alu_for<float>(in.op);
    case Type::f64: return alu_for<double>(in.op);
    case Type::s32: return alu_for<std::int32_t>(in.op);
    case Type::u64: return alu_for<std::uint64_t>(in.op);
    case Type::s64: return alu_for<std::int64_t>(in.op);
    case Type::pred: return pred_for(in.op);
    case Type::u32: return alu_for<std::uint32_t>(in.op);
    default: return nullptr;  // pairs, halves and narrow integers: execute()'s own loop
  }
}

// Runs a decoded lane function: sources as 32-lane arrays (registers in place, immediates and
// special registers materialised), the result into the destination register.
void run_lanes(LaneFn f, WarpState& w, const Instr& in, const ExecContext& ctx, std::uint32_t mask) {
  std::uint64_t tmp[3][32];
  const std::uint64_t* srcs[3];
  for (std::size_t k = 0; k < 3; ++k) {
    if (k < in.src.size()) srcs[k] = operand_lanes(w, in.src[k], ctx, tmp[k]);
    else srcs[k] = std::fill_n(tmp[k], 32, 0) - 32;
  }
  bool ok = true;
  f(&w.regs[std::size_t(in.dst[0]) * 32], srcs[0], srcs[1], srcs[2], mask, ok);
  if (!ok)
    workload_error(fmt::format("kernel {}: integer division by zero at {}:{} `{}`", ctx.program->name,
                               ctx.program->file, in.line, in.text));
}

}  // namespace

std::vector<LaneFn> decode_lane_functions(const Program& program) {
  std::vector<LaneFn> out;
  for (const Instr& in : program.code) {
    bool alu = (in.op <= Op::rsqrt || in.op == Op::sin || in.op == Op::cos || in.op == Op::tanh ||
                in.op == Op::copysign) &&
               in.op != Op::selp && in.op != Op::cvt;
    out.push_back(alu && !in.dst.empty() ? lane_function(in) : nullptr);
  }
  return out;
}

Effects execute(WarpState& w, const Instr& in, const ExecContext& ctx) {
  Effects fx;
  SimtEntry& top = w.stack.back();
  std::uint32_t mask = top.mask;
  fx.active = mask;
  if (in.guard >= 0) {
    const std::uint64_t* p = &w.regs[std::size_t(in.guard) * 32];
    std::uint32_t g = 0;
    for (int lane = 0; lane < 32; ++lane) g |= std::uint32_t(p[lane] & 1) << lane;
    mask &= in.guard_negated ? ~g : g;
  }
  fx.mask = mask;
  const int pc = top.pc;
  auto lanes = [&](auto&& f) {
    for (std::uint32_t m = mask; m; m &= m - 1) f(std::countr_zero(m));
  };
  switch (in.op) {
    case Op::bra: {
      fx.control = Effects::branch;
      std::uint32_t active = top.mask;
      if (mask == active) { top.pc = in.target; }
      else if (mask == 0) { top.pc = pc + 1; }
      else {  // divergence: this entry waits at the reconvergence point; run the paths in turn
        int rpc = in.reconverge;
        top.pc = rpc;
        w.stack.push_back({pc + 1, rpc, active & ~mask});
        w.stack.push_back({in.target, rpc, mask});
      }
      w.reconverge();
      return fx;
    }
    case Op::exit: {
      fx.control = Effects::exited;
      w.live &= ~mask;
      for (auto& e : w.stack) e.mask &= ~mask;
      if (w.live == 0) { w.done = true; return fx; }
      if (w.stack.back().mask != 0 && w.stack.back().pc == pc) w.stack.back().pc = pc + 1;
      while (w.stack.size() > 1 && w.stack.back().mask == 0) w.stack.pop_back();
      w.reconverge();
      return fx;
    }
    case Op::bar:
      if (top.mask != w.live)
        workload_error(fmt::format("kernel {}: bar.sync at {}:{} reached by only some lanes of warp {} in block {} "
                                   "(a barrier inside divergent code never completes)",
                                   ctx.program->name, ctx.program->file, in.line, w.warp_in_cta, w.cta_id));
      fx.control = Effects::barrier;
      break;
    case Op::setp:
      if (LaneFn f = ctx.lane_fns ? ctx.lane_fns[pc] : nullptr) {
        run_lanes(f, w, in, ctx, mask);
        break;
      }
      lanes([&](int lane) {
        std::uint64_t a = read_operand(w, in.src[0], lane, ctx), b = read_operand(w, in.src[1], lane, ctx);
        bool r = false;
        switch (in.type) {
          case Type::f32: r = compare<float>(in.cmp, a, b); break;
          case Type::f64: r = compare<double>(in.cmp, a, b); break;
          case Type::f16: case Type::bf16:
            r = compare<double>(in.cmp, std::bit_cast<std::uint64_t>(detail::to_double(in.type, a)),
                                std::bit_cast<std::uint64_t>(detail::to_double(in.type, b)));
            break;
          case Type::s32: case Type::s16: case Type::s8: case Type::s64:
            r = compare<std::int64_t>(in.cmp, std::uint64_t(detail::to_int64(in.type, a)), std::uint64_t(detail::to_int64(in.type, b)));
            break;
          case Type::u64: r = compare<std::uint64_t>(in.cmp, a, b); break;
          default:
            r = compare<std::uint64_t>(in.cmp, std::uint64_t(detail::to_int64(in.type, a)), std::uint64_t(detail::to_int64(in.type, b)));
            break;
        }
        w.reg(in.dst[0], lane) = r;
      });
      break;
    case Op::selp:
      lanes([&](int lane) {
        bool p = read_operand(w, in.src[2], lane, ctx) & 1;
        w.reg(in.dst[0], lane) = read_operand(w, in.src[p ? 0 : 1], lane, ctx);
      });
      break;
    case Op::cvt:
      if (in.src.size() == 2) {  // f32 pair into f16x2/bf16x2: the first source into the upper half
        const bool b = in.type == Type::bf16x2;
        lanes([&](int lane) {
          const float hi = f32(read_operand(w, in.src[0], lane, ctx)), lo = f32(read_operand(w, in.src[1], lane, ctx));
          w.reg(in.dst[0], lane) = std::uint64_t(b ? float_to_bf16(lo) : float_to_half(lo)) |
                                   std::uint64_t(b ? float_to_bf16(hi) : float_to_half(hi)) << 16;
        });
        break;
      }
      lanes([&](int lane) { w.reg(in.dst[0], lane) = detail::convert(in, read_operand(w, in.src[0], lane, ctx)); });
      break;
    case Op::ld: case Op::st: case Op::atom_add:
      detail::exec_memory(w, in, ctx, mask, fx);
      break;
    case Op::shfl: case Op::popc: case Op::clz: case Op::brev: case Op::bfe: case Op::bfi: case Op::prmt:
    case Op::vote: case Op::activemask: case Op::slct: case Op::shf: case Op::mulhi: case Op::lop3:
      detail::exec_values(w, in, ctx, mask);
      break;
    case Op::mma:
      if (top.mask != 0xffffffffu || mask != 0xffffffffu)
        workload_error(fmt::format("kernel {}: mma at {}:{} needs all 32 lanes of the warp active",
                                   ctx.program->name, ctx.program->file, in.line));
      detail::exec_mma(w, in, ctx);
      break;
    case Op::wgmma:
      if (top.mask != 0xffffffffu || mask != 0xffffffffu)
        workload_error(fmt::format("kernel {}: wgmma at {}:{} needs all 32 lanes of the warp active",
                                   ctx.program->name, ctx.program->file, in.line));
      detail::exec_wgmma(w, in, ctx);
      break;
    case Op::ldmatrix:
      detail::exec_ldmatrix(w, in, ctx, mask, fx);
      break;
    case Op::cp_async:
      detail::exec_cp_async(w, in, ctx, mask, fx);
      break;
    case Op::cp_commit: case Op::cp_wait: case Op::wgmma_fence: case Op::wgmma_commit: case Op::wgmma_wait:
      break;  // groups are timing (sm_core_tensor.cpp): the values were made at issue
    case Op::nop:
      break;
    default: {
      if (LaneFn f = ctx.lane_fns ? ctx.lane_fns[pc] : nullptr) {
        run_lanes(f, w, in, ctx, mask);
        break;
      }
      bool ok = true;
      // materialise the sources as 32-lane arrays once, then run one type-specialised lane loop
      std::uint64_t tmp[3][32];
      const std::uint64_t* srcs[3] = {tmp[0], tmp[1], tmp[2]};
      for (std::size_t k = 0; k < 3; ++k) {
        if (k >= in.src.size()) { std::fill(tmp[k], tmp[k] + 32, 0); continue; }
        const Operand& o = in.src[k];
        if (o.kind == Operand::k_reg) srcs[k] = &w.regs[std::size_t(o.reg) * 32];
        else if (o.kind == Operand::k_imm) std::fill(tmp[k], tmp[k] + 32, o.bits);
        else for (int lane = 0; lane < 32; ++lane) tmp[k][lane] = read_operand(w, o, lane, ctx);
      }
      std::uint64_t* d = &w.regs[std::size_t(in.dst[0]) * 32];
      const std::uint64_t *A = srcs[0], *B = srcs[1], *C = srcs[2];
      auto loop = [&](auto tag) {
        using T = decltype(tag);
        for (std::uint32_t m = mask; m; m &= m - 1) {
          int l = std::countr_zero(m);
          d[l] = arith<T>(in.op, A[l], B[l], C[l], ok);
        }
      };
      if (in.op == Op::selp) {
        for (std::uint32_t m = mask; m; m &= m - 1) { int l = std::countr_zero(m); d[l] = (C[l] & 1) ? A[l] : B[l]; }
      } else if (in.wide) {  // 16 → 32 bits (held in 32) or 32 → 64 bits
        bool sgn = in.type == Type::s32 || in.type == Type::s16;
        for (std::uint32_t m = mask; m; m &= m - 1) {
          int l = std::countr_zero(m);
          std::int64_t x = sgn ? std::int64_t(std::int32_t(std::uint32_t(A[l]))) : std::int64_t(std::uint32_t(A[l]));
          std::int64_t y = sgn ? std::int64_t(std::int32_t(std::uint32_t(B[l]))) : std::int64_t(std::uint32_t(B[l]));
          d[l] = std::uint64_t(x * y) + (in.op == Op::mad ? C[l] : 0);
        }
      } else {
        switch (in.type) {
          case Type::f32: loop(float{}); break;
          case Type::f64: loop(double{}); break;
          case Type::u16: loop(std::uint16_t{}); break;
          case Type::s16: loop(std::int16_t{}); break;
          case Type::u8: loop(std::uint8_t{}); break;
          case Type::s8: loop(std::int8_t{}); break;
          case Type::f16: case Type::bf16:
            for (std::uint32_t m = mask; m; m &= m - 1) {
              int l = std::countr_zero(m);
              d[l] = half_arith(in.op, in.type, A[l], B[l], C[l]);
            }
            break;
          case Type::s32: loop(std::int32_t{}); break;
          case Type::u64: loop(std::uint64_t{}); break;
          case Type::s64: loop(std::int64_t{}); break;
          case Type::pred:
            loop(std::uint32_t{});
            for (std::uint32_t m = mask; m; m &= m - 1) d[std::countr_zero(m)] &= 1;
            break;
          case Type::f16x2: case Type::bf16x2:
            for (std::uint32_t m = mask; m; m &= m - 1) {
              int l = std::countr_zero(m);
              d[l] = pair_arith(in.op, in.type, A[l], B[l], C[l]);
            }
            break;
          default: loop(std::uint32_t{}); break;
        }
      }
      if (in.sat && is_float(in.type))
        for (std::uint32_t m = mask; m; m &= m - 1) d[std::countr_zero(m)] = saturate_unit(in.type, d[std::countr_zero(m)]);
      if (!ok)
        workload_error(fmt::format("kernel {}: integer division by zero at {}:{} `{}`", ctx.program->name,
                                   ctx.program->file, in.line, in.text));
      break;
    }
  }
  top.pc = pc + 1;
  w.reconverge();
  return fx;
}

}  // namespace hwsim::warp
