// Loads, stores and the atomic family, in the shared, global and generic spaces, for elements of
// 1, 2, 4 and 8 bytes and vectors of up to four (execute_detail.h).
#include <bit>
#include <cmath>
#include <cstring>
#include <fmt/format.h>

#include "models/gpu/warp/execute_detail.h"
#include "sim/error.h"

namespace hwsim::warp::detail {
namespace {

std::uint64_t load_bytes(const std::uint8_t* p, int n) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, std::size_t(n));  // little-endian host, as the GPU
  return v;
}
void store_bytes(std::uint8_t* p, int n, std::uint64_t v) { std::memcpy(p, &v, std::size_t(n)); }

// A loaded element of `t` as its register holds it (narrow signed types sign-extended).
std::uint64_t widen(Type t, std::uint64_t v) { return is_integer(t) && type_bytes(t) < 4 ? from_int64(t, to_int64(t, v)) : v; }

// The atomic operation `in.atom` on `old` with operands b (and c for cas); returns the new value.
std::uint64_t atomic_result(const Instr& in, std::uint64_t old, std::uint64_t b, std::uint64_t c) {
  const Type t = in.type;
  const bool wide = type_bytes(t) == 8;
  const std::uint64_t keep = wide ? ~0ull : 0xffffffffull;
  switch (in.atom) {
    case AtomOp::add:
      if (t == Type::f32) return std::bit_cast<std::uint32_t>(std::bit_cast<float>(std::uint32_t(old)) + std::bit_cast<float>(std::uint32_t(b)));
      if (t == Type::f64) return std::bit_cast<std::uint64_t>(std::bit_cast<double>(old) + std::bit_cast<double>(b));
      return (old + b) & keep;
    case AtomOp::min: case AtomOp::max: {
      bool less;
      if (t == Type::f32) less = std::bit_cast<float>(std::uint32_t(b)) < std::bit_cast<float>(std::uint32_t(old));
      else if (is_signed(t)) less = to_int64(t, b) < to_int64(t, old);
      else less = (b & keep) < (old & keep);
      return (in.atom == AtomOp::min) == less ? (b & keep) : old;
    }
    case AtomOp::inc: return (old & keep) >= (b & keep) ? 0 : (old + 1) & keep;
    case AtomOp::dec: return ((old & keep) == 0 || (old & keep) > (b & keep)) ? (b & keep) : (old - 1) & keep;
    case AtomOp::and_: return old & b & keep;
    case AtomOp::or_: return (old | b) & keep;
    case AtomOp::xor_: return (old ^ b) & keep;
    case AtomOp::exch: return b & keep;
    case AtomOp::cas: return (old & keep) == (b & keep) ? (c & keep) : old;
  }
  return old;
}

struct Access {
  const Instr& in;
  const ExecContext& ctx;
  WarpState& w;
  int eb;                                  // bytes per element
  const std::uint64_t* value[4] = {};      // st: the values; atomics: b and c
  std::uint64_t* dst[4] = {};              // ld and atomics: the destinations' lanes
};

// One lane's access to `p` (the element's bytes, `n` of them valid from p).
void lane_access(Access& x, int lane, std::uint8_t* p) {
  const Instr& in = x.in;
  if (in.op == Op::ld) {
    for (int k = 0; k < in.vec; ++k) x.dst[k][lane] = widen(in.type, load_bytes(p + k * x.eb, x.eb));
  } else if (in.op == Op::st) {
    for (int k = 0; k < in.vec; ++k) store_bytes(p + k * x.eb, x.eb, x.value[k][lane]);
  } else {
    const std::uint64_t old = load_bytes(p, x.eb);
    store_bytes(p, x.eb, atomic_result(in, old, x.value[0][lane], x.value[1] ? x.value[1][lane] : 0));
    if (x.dst[0]) x.dst[0][lane] = widen(in.type, old);
  }
}

}  // namespace

void exec_memory(WarpState& w, const Instr& in, const ExecContext& ctx, std::uint32_t mask, Effects& fx) {
  fx.memory = true;
  fx.store = in.op == Op::st;
  fx.atomic = in.op == Op::atom_add;
  Access x{in, ctx, w, type_bytes(in.type)};
  fx.bytes = x.eb * in.vec;
  const char* what = in.op == Op::ld ? "out-of-bounds load" : in.op == Op::st ? "out-of-bounds store" : "out-of-bounds atomic";
  std::uint64_t tmp[5][32];
  const std::uint64_t* base = operand_lanes(w, in.src[0], ctx, tmp[0]);
  for (std::size_t k = 1; k < in.src.size() && k <= 4; ++k) x.value[k - 1] = operand_lanes(w, in.src[k], ctx, tmp[k]);
  for (std::size_t k = 0; k < in.dst.size() && k < 4; ++k) x.dst[k] = &w.regs[std::size_t(in.dst[k]) * 32];
  const std::uint64_t align = std::uint64_t(fx.bytes) - 1;  // a vector access is aligned to its whole size
  const std::uint64_t offset = std::uint64_t(in.offset);
  Space space = in.space;
  if (space == Space::generic) {  // resolved by the first active lane; the others must agree
    auto window = [](std::uint64_t a) { return a < kLocalWindow ? Space::shared : a < kSharedWindow ? Space::local : Space::global; };
    space = window(mask ? base[std::countr_zero(mask)] + offset : 0);
    for (std::uint32_t m = mask; m; m &= m - 1) {
      const int lane = std::countr_zero(m);
      if (window(base[lane] + offset) != space)
        access_error(ctx, w, in, lane, base[lane] + offset, fx.bytes, "generic access whose lanes mix shared, local and global addresses");
    }
  }
  const std::uint64_t local_base = in.space == Space::generic ? kLocalWindow : 0;
  fx.space = space;
  for (std::uint32_t m = mask; m; m &= m - 1) {
    const int lane = std::countr_zero(m);
    const std::uint64_t a = space == Space::shared ? (base[lane] + offset) & 0xffffffffull : base[lane] + offset;
    fx.addr[lane] = a;
    if (a & align) access_error(ctx, w, in, lane, a, fx.bytes, "misaligned access");
    if (space == Space::shared) {
      if (a + std::uint64_t(fx.bytes) > ctx.shared_bytes) access_error(ctx, w, in, lane, a, fx.bytes, what);
      lane_access(x, lane, ctx.shared + a);
      continue;
    }
    if (space == Space::local) {  // the lane's own frame
      const std::uint64_t off = a - local_base, frame = ctx.program->local_bytes;
      if (a < local_base || off + std::uint64_t(fx.bytes) > frame) access_error(ctx, w, in, lane, a, fx.bytes, what);
      lane_access(x, lane, w.local.data() + std::uint64_t(lane) * frame + off);
      continue;
    }
    Buffer* b = ctx.memory->find(a, std::uint64_t(fx.bytes));
    if (!b) access_error(ctx, w, in, lane, a, fx.bytes, what);
    std::uint8_t bytes[32];
    ctx.memory->read_bytes(*b, a, fx.bytes, bytes);
    lane_access(x, lane, bytes);
    if (in.op != Op::ld) ctx.memory->write_bytes(*b, a, fx.bytes, bytes);
  }
}

}  // namespace hwsim::warp::detail
