// Conversions, bit operations, votes and shuffles: PTX's instructions that are not one arithmetic
// lane function (execute_detail.h).
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "models/gpu/warp/execute_detail.h"

namespace hwsim::warp::detail {

double to_double(Type t, std::uint64_t v) {
  switch (t) {
    case Type::f32: return std::bit_cast<float>(std::uint32_t(v));
    case Type::f64: return std::bit_cast<double>(v);
    case Type::f16: return half_to_float(std::uint16_t(v));
    case Type::bf16: return bf16_to_float(std::uint16_t(v));
    case Type::u64: return double(v);
    default: return double(to_int64(t, v));
  }
}

std::int64_t to_int64(Type t, std::uint64_t v) {
  switch (t) {
    case Type::s8: return std::int8_t(v);
    case Type::s16: return std::int16_t(v);
    case Type::s32: return std::int32_t(std::uint32_t(v));
    case Type::u8: return std::uint8_t(v);
    case Type::u16: case Type::f16: case Type::bf16: return std::uint16_t(v);
    case Type::u64: case Type::s64: case Type::f64: return std::int64_t(v);
    case Type::pred: return std::int64_t(v & 1);
    default: return std::uint32_t(v);
  }
}

namespace {

std::uint64_t reverse_bits(std::uint64_t v, int width) {
  std::uint64_t r = 0;
  for (int i = 0; i < width; ++i) r |= ((v >> i) & 1) << (width - 1 - i);
  return r;
}

// `x` as float type `t` with rounding mode `mode` (0 nearest even, 1 toward zero, 2 down, 3 up).
std::uint64_t round_to_float(Type t, double x, int mode) {
  if (t == Type::f64) return std::bit_cast<std::uint64_t>(x);
  float r = float(x);  // nearest even
  if (!std::isnan(x) && double(r) != x) {
    if ((mode == 1 && std::fabs(double(r)) > std::fabs(x)) || (mode == 2 && double(r) > x)) r = std::nextafter(r, mode == 1 ? 0.0f : -INFINITY);
    else if (mode == 3 && double(r) < x) r = std::nextafter(r, INFINITY);
  }
  if (t == Type::f32) return std::bit_cast<std::uint32_t>(r);
  return t == Type::f16 ? float_to_half(r) : float_to_bf16(r);
}

double round_integral(double x, int mode) {
  switch (mode) {
    case 1: return std::trunc(x);
    case 2: return std::floor(x);
    case 3: return std::ceil(x);
    default: return std::nearbyint(x);
  }
}

// A float to an integer type: rounded as `mode` says, saturated to the type's range, NaN is 0
// (PTX's cvt.rni/rzi/rmi/rpi; never a C++ cast of an out-of-range value).
std::uint64_t float_to_int(Type t, double x, int mode) {
  if (std::isnan(x)) return 0;
  x = round_integral(x, mode);
  const int bits = type_bytes(t) * 8;
  const double lo = is_signed(t) ? -std::ldexp(1.0, bits - 1) : 0.0;
  const double hi = is_signed(t) ? std::ldexp(1.0, bits - 1) - 1 : std::ldexp(1.0, bits) - 1;
  if (x <= lo) x = lo;
  if (x >= hi) return is_signed(t) ? from_int64(t, std::int64_t(std::ldexp(1.0, bits - 1) - 1))
                                   : (bits == 64 ? ~0ull : from_int64(t, std::int64_t(hi)));
  return is_signed(t) ? from_int64(t, std::int64_t(x)) : from_int64(t, std::int64_t(std::uint64_t(x)));
}

}  // namespace

std::uint64_t from_int64(Type t, std::int64_t x) {
  switch (t) {
    case Type::s8: return raw(std::int8_t(x));
    case Type::s16: return raw(std::int16_t(x));
    case Type::s32: return raw(std::int32_t(x));
    case Type::u8: return raw(std::uint8_t(x));
    case Type::u16: return raw(std::uint16_t(x));
    case Type::u64: case Type::s64: return std::uint64_t(x);
    case Type::f32: case Type::f64: case Type::f16: case Type::bf16: return round_to_float(t, double(x), 0);
    case Type::pred: return std::uint64_t(x & 1);
    default: return std::uint32_t(x);
  }
}

std::uint64_t convert(const Instr& in, std::uint64_t v) {
  const Type dst = in.type, src = in.src_type;
  std::uint64_t r;
  if (!is_float(src) && !is_float(dst)) {
    std::int64_t i = to_int64(src, v);
    if (in.sat && is_integer(dst)) {  // clamp to the destination's range
      const int bits = type_bytes(dst) * 8;
      const std::int64_t hi = is_signed(dst) ? (bits == 64 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t(1) << (bits - 1)) - 1)
                                            : (bits >= 63 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t(1) << bits) - 1);
      const std::int64_t lo = is_signed(dst) ? (bits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t(1) << (bits - 1))) : 0;
      if (src != Type::u64 || i >= 0) i = std::clamp(i, lo, hi);
      else i = hi;
    }
    return from_int64(dst, i);
  }
  double x = src == Type::u64 ? double(v) : to_double(src, v);
  if (!is_float(dst)) return float_to_int(dst, x, in.round);
  if (in.round_int) x = round_integral(x, in.round);
  if (in.sat) x = std::isnan(x) ? 0.0 : std::clamp(x, 0.0, 1.0);
  r = round_to_float(dst, x, in.round_int ? 0 : in.round);
  return r;
}

namespace {

std::uint64_t bit_field_extract(const Instr& in, std::uint64_t a, std::uint64_t pos_bits, std::uint64_t len_bits) {
  const int width = type_bytes(in.type) * 8;
  const unsigned pos = unsigned(pos_bits & 0xff), len = unsigned(len_bits & 0xff);
  const bool sgn = is_signed(in.type);
  std::uint64_t value = width == 64 ? a : (a & 0xffffffffull);
  const unsigned msb = std::min<unsigned>(pos + len, unsigned(width)) - 1;
  const bool sbit = len == 0 ? false : sgn && (pos + len - 1 >= unsigned(width) ? (value >> (width - 1) & 1) : (value >> msb & 1));
  std::uint64_t d = 0;
  for (unsigned i = 0; i < unsigned(width); ++i) {
    const bool b = i < len && pos + i < unsigned(width) ? (value >> (pos + i) & 1) : sbit;
    if (b) d |= std::uint64_t(1) << i;
  }
  return width == 64 ? d : (d & 0xffffffffull);
}

std::uint64_t bit_field_insert(const Instr& in, std::uint64_t f, std::uint64_t b, std::uint64_t pos_bits, std::uint64_t len_bits) {
  const int width = type_bytes(in.type) * 8;
  const unsigned pos = unsigned(pos_bits & 0xff), len = unsigned(len_bits & 0xff);
  std::uint64_t d = b;
  for (unsigned i = 0; i < len && pos + i < unsigned(width); ++i)
    d = (d & ~(std::uint64_t(1) << (pos + i))) | ((f >> i & 1) << (pos + i));
  return width == 64 ? d : (d & 0xffffffffull);
}

// prmt.b32 default mode: each selector nibble picks one of the eight bytes of {b, a}, its top bit
// replicating that byte's sign.
std::uint64_t permute(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  const std::uint64_t bytes = (a & 0xffffffffull) | ((b & 0xffffffffull) << 32);
  std::uint32_t d = 0;
  for (int k = 0; k < 4; ++k) {
    const unsigned sel = unsigned(c >> (4 * k)) & 0xf;
    std::uint32_t byte = std::uint32_t(bytes >> (8 * (sel & 7))) & 0xff;
    if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
    d |= byte << (8 * k);
  }
  return d;
}

std::uint64_t funnel_shift(const Instr& in, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  unsigned n = unsigned(c & 0xffffffffull);
  n = in.shf_wrap ? (n & 31) : std::min(n, 32u);
  const std::uint64_t joined = (a & 0xffffffffull) | ((b & 0xffffffffull) << 32);
  if (in.shf_left) return std::uint32_t((joined << n) >> 32);
  return std::uint32_t(joined >> n);
}

std::uint64_t mul_high(Type t, std::uint64_t a, std::uint64_t b) {
  switch (t) {
    case Type::s32: return std::uint32_t((std::int64_t(std::int32_t(a)) * std::int64_t(std::int32_t(b))) >> 32);
    case Type::u64: return std::uint64_t((unsigned __int128)a * b >> 64);
    case Type::s64: return std::uint64_t((__int128)std::int64_t(a) * std::int64_t(b) >> 64);
    case Type::s16: return raw(std::int16_t((std::int32_t(std::int16_t(a)) * std::int16_t(b)) >> 16));
    case Type::u16: return std::uint16_t((std::uint32_t(std::uint16_t(a)) * std::uint16_t(b)) >> 16);
    default: return std::uint32_t((std::uint64_t(std::uint32_t(a)) * std::uint32_t(b)) >> 32);
  }
}

// shfl.sync: PTX's lane selection with its packed clamp / segment operand c (.hwk's shfl has none:
// 31 for idx, down and bfly, 0 for up). dst[1], when present, is the predicate "source lane valid".
void shuffle(WarpState& w, const Instr& in, const ExecContext& ctx, std::uint32_t mask) {
  std::uint64_t vals[32];
  for (int lane = 0; lane < 32; ++lane) vals[lane] = read_operand(w, in.src[0], lane, ctx);
  for (std::uint32_t m = mask; m; m &= m - 1) {
    const int lane = std::countr_zero(m);
    const int b = int(read_operand(w, in.src[1], lane, ctx) & 31);
    const unsigned c = in.src.size() > 2 ? unsigned(read_operand(w, in.src[2], lane, ctx)) : (in.shfl == Shfl::up ? 0u : 31u);
    const int clamp = int(c & 31), seg = int((c >> 8) & 31);
    const int max_lane = (lane & seg) | (clamp & ~seg), min_lane = lane & seg;
    int j = lane;
    bool valid = false;
    switch (in.shfl) {
      case Shfl::up: j = lane - b; valid = j >= max_lane; break;
      case Shfl::down: j = lane + b; valid = j <= max_lane; break;
      case Shfl::bfly: j = lane ^ b; valid = j <= max_lane; break;
      case Shfl::idx: j = min_lane | (b & ~seg); valid = j <= max_lane; break;
    }
    if (!valid) j = lane;
    w.reg(in.dst[0], lane) = vals[j & 31];
    if (in.dst.size() > 1) w.reg(in.dst[1], lane) = valid;
  }
}

void vote(WarpState& w, const Instr& in, const ExecContext& ctx, std::uint32_t mask) {
  std::uint32_t ballot = 0;
  for (std::uint32_t m = mask; m; m &= m - 1) {
    const int lane = std::countr_zero(m);
    bool p = read_operand(w, in.src[0], lane, ctx) & 1;
    if (in.src[0].kind == Operand::k_reg && in.negate_src) p = !p;
    ballot |= std::uint32_t(p) << lane;
  }
  std::uint64_t r = 0;
  switch (in.vote) {
    case Vote::ballot: r = ballot; break;
    case Vote::any: r = ballot != 0; break;
    case Vote::all: r = ballot == mask; break;
    case Vote::uni: r = ballot == 0 || ballot == mask; break;
  }
  for (std::uint32_t m = mask; m; m &= m - 1) w.reg(in.dst[0], std::countr_zero(m)) = r;
}

}  // namespace

void exec_values(WarpState& w, const Instr& in, const ExecContext& ctx, std::uint32_t mask) {
  if (in.op == Op::shfl) return shuffle(w, in, ctx, mask);
  if (in.op == Op::vote) return vote(w, in, ctx, mask);
  if (in.op == Op::activemask) {
    for (std::uint32_t m = mask; m; m &= m - 1) w.reg(in.dst[0], std::countr_zero(m)) = w.stack.back().mask;
    return;
  }
  const bool wide = type_bytes(in.type) == 8;
  for (std::uint32_t m = mask; m; m &= m - 1) {
    const int lane = std::countr_zero(m);
    std::uint64_t s[4] = {};
    for (std::size_t k = 0; k < in.src.size() && k < 4; ++k) s[k] = read_operand(w, in.src[k], lane, ctx);
    const std::uint64_t a = wide ? s[0] : (s[0] & 0xffffffffull);
    std::uint64_t r = 0;
    switch (in.op) {
      case Op::popc: r = std::uint64_t(std::popcount(a)); break;
      case Op::clz: r = wide ? std::uint64_t(std::countl_zero(a)) : std::uint64_t(std::countl_zero(std::uint32_t(a))); break;
      case Op::brev: r = reverse_bits(a, wide ? 64 : 32); break;
      case Op::bfe: r = bit_field_extract(in, a, s[1], s[2]); break;
      case Op::bfi: r = bit_field_insert(in, s[0], s[1], s[2], s[3]); break;
      case Op::prmt: r = permute(s[0], s[1], s[2]); break;
      case Op::shf: r = funnel_shift(in, s[0], s[1], s[2]); break;
      case Op::mulhi: r = mul_high(in.type, s[0], s[1]); break;
      case Op::lop3: {  // bit i of d: bit (a_i b_i c_i) of the lookup table
        const std::uint32_t x = std::uint32_t(s[0]), y = std::uint32_t(s[1]), z = std::uint32_t(s[2]), lut = std::uint32_t(s[3]);
        std::uint32_t d = 0;
        for (int i = 0; i < 32; ++i) d |= ((lut >> (((x >> i & 1) << 2) | ((y >> i & 1) << 1) | (z >> i & 1))) & 1u) << i;
        r = d;
        break;
      }
      case Op::slct: {  // slct.DTYPE.CTYPE d, a, b, c: a when c >= 0
        const bool take_a = in.src_type == Type::f32 ? !(std::bit_cast<float>(std::uint32_t(s[2])) < 0.0f)
                                                     : std::int32_t(std::uint32_t(s[2])) >= 0;
        r = take_a ? s[0] : s[1];
        break;
      }
      default: break;
    }
    w.reg(in.dst[0], lane) = r;
  }
}

}  // namespace hwsim::warp::detail
