// Functional semantics of the matrix instructions (execute_detail.h): mma.sync in its m16n8k16,
// m16n8k8 and m16n8k32 shapes with the PTX ISA's per-lane fragment layouts, ldmatrix, and
// wgmma.mma_async reading A and B through shared-memory matrix descriptors (no swizzle, 32-, 64-
// and 128-byte swizzles; K-major or MN-major). Values are computed at issue; the timing of the
// asynchronous ones is sm_core_tensor.cpp's.
#include <algorithm>
#include <bit>
#include <vector>
#include <cmath>
#include <cstring>
#include <fmt/format.h>

#include "models/gpu/warp/execute_detail.h"
#include "sim/error.h"

namespace hwsim::warp::detail {
namespace {

struct Pos {
  int r, c;
};

// Element i of a lane's A fragment (row, k), by the PTX ISA's figures for mma.m16n8k*.
Pos frag_a(const MmaShape& s, int lane, int i) {
  const int g = lane >> 2, tg = lane & 3;
  if (s.k == 16) return {g + 8 * ((i >> 1) & 1), tg * 2 + (i & 1) + 8 * (i >> 2)};           // f16/bf16: 8
  if (s.k == 8 && s.a == MmaElem::tf32) return {g + 8 * (i & 1), tg + 4 * (i >> 1)};         // tf32: 4
  if (s.k == 8) return {g + 8 * (i >> 1), tg * 2 + (i & 1)};                                 // f16: 4
  return {g + 8 * ((i >> 2) & 1), tg * 4 + (i & 3) + 16 * (i >> 3)};                         // 8-bit: 16
}
// Element i of a lane's B fragment (k, col).
Pos frag_b(const MmaShape& s, int lane, int i) {
  const int g = lane >> 2, tg = lane & 3;
  if (s.k == 16) return {tg * 2 + (i & 1) + 8 * (i >> 1), g};
  if (s.k == 8 && s.b == MmaElem::tf32) return {tg + 4 * i, g};
  if (s.k == 8) return {tg * 2 + i, g};
  return {tg * 4 + (i & 3) + 16 * (i >> 2), g};
}
// Element i (0..3) of a lane's C/D fragment of a 16x8 tile (row, col).
Pos frag_c(int lane, int i) { return {(lane >> 2) + 8 * (i >> 1), (lane & 3) * 2 + (i & 1)}; }

// An element of `e` held in `bits` bits of a register, as a double.
double elem_value(MmaElem e, std::uint32_t v) {
  switch (e) {
    case MmaElem::f16: return half_to_float(std::uint16_t(v));
    case MmaElem::bf16: return bf16_to_float(std::uint16_t(v));
    case MmaElem::tf32: return std::bit_cast<float>(v & 0xffffe000u);  // 10 mantissa bits read
    case MmaElem::s8: return double(std::int8_t(v));
    case MmaElem::u8: return double(std::uint8_t(v));
  }
  return 0;
}

// Element i of a fragment whose registers are `regs` (lane values), elements packed low first.
double frag_elem(const WarpState& w, const Instr& in, std::size_t first_src, MmaElem e, int lane, int i,
                 const ExecContext& ctx) {
  const int bits = mma_elem_bits(e), per = 32 / bits;
  const std::uint64_t r = read_operand(w, in.src[first_src + std::size_t(i / per)], lane, ctx);
  const std::uint32_t v = std::uint32_t(r >> (bits * (i % per))) & (bits == 32 ? 0xffffffffu : (1u << bits) - 1);
  return elem_value(e, v);
}

std::uint64_t acc_bits(bool int_acc, double v) {
  if (int_acc) return std::uint32_t(std::int32_t(std::int64_t(v)));
  return std::bit_cast<std::uint32_t>(float(v));
}
double acc_value(bool int_acc, std::uint64_t r) {
  return int_acc ? double(std::int32_t(std::uint32_t(r))) : double(std::bit_cast<float>(std::uint32_t(r)));
}

// A wgmma shared-memory matrix descriptor (PTX ISA "Matrix Descriptor Format").
struct SmemDesc {
  std::uint64_t start = 0, lbo = 0, sbo = 0;
  int swizzle = 0;  // bytes: 0 (none: 8x16-byte core matrices), 32, 64 or 128
};
SmemDesc decode_desc(std::uint64_t d) {
  SmemDesc s;
  s.start = (d & 0x3fff) << 4;
  s.lbo = ((d >> 16) & 0x3fff) << 4;
  s.sbo = ((d >> 32) & 0x3fff) << 4;
  const int mode = int(d >> 62);
  s.swizzle = mode == 1 ? 128 : mode == 2 ? 64 : mode == 3 ? 32 : 0;
  return s;
}
// The swizzle XORs the 16-byte chunk index within a row with the row index within the atom.
std::uint64_t swizzled(std::uint64_t a, int swizzle) {
  if (swizzle == 0) return a;
  const std::uint64_t mask = std::uint64_t(swizzle / 16 - 1);
  return a ^ (((a >> 7) & mask) << 4);
}
// Byte address of element (mn, k) of an operand: K-major (k contiguous) or MN-major.
std::uint64_t desc_addr(const SmemDesc& d, bool mn_major, int mn, int k, int esize) {
  if (!mn_major) {
    const std::uint64_t kb = std::uint64_t(k * esize);
    if (d.swizzle == 0) return d.start + std::uint64_t(mn / 8) * d.sbo + (kb / 16) * d.lbo + std::uint64_t(mn % 8) * 16 + kb % 16;
    const std::uint64_t w = std::uint64_t(d.swizzle);
    return swizzled(d.start + std::uint64_t(mn / 8) * d.sbo + std::uint64_t(mn % 8) * w + (kb / w) * d.lbo + kb % w, d.swizzle);
  }
  const std::uint64_t mb = std::uint64_t(mn * esize);
  if (d.swizzle == 0) return d.start + (mb / 16) * d.lbo + std::uint64_t(k / 8) * d.sbo + std::uint64_t(k % 8) * 16 + mb % 16;
  const std::uint64_t w = std::uint64_t(d.swizzle);
  return swizzled(d.start + (mb / w) * d.lbo + std::uint64_t(k / 8) * d.sbo + std::uint64_t(k % 8) * w + mb % w, d.swizzle);
}

double shared_elem(const ExecContext& ctx, const WarpState& w, const Instr& in, std::uint64_t a, MmaElem e) {
  if (a + 2 > ctx.shared_bytes) access_error(ctx, w, in, 0, a, 2, "wgmma operand outside shared memory");
  std::uint16_t v;
  std::memcpy(&v, ctx.shared + a, 2);
  return elem_value(e, v);
}

}  // namespace

void exec_mma(WarpState& w, const Instr& in, const ExecContext& ctx) {
  const MmaShape& s = in.mma;
  const int na = s.m * s.k / 32, nb = s.k * s.n / 32;  // elements per lane
  const std::size_t b_first = std::size_t(s.m * s.k * mma_elem_bits(s.a) / 1024);
  const std::size_t c_first = b_first + std::size_t(s.k * s.n * mma_elem_bits(s.b) / 1024);
  double A[16][32] = {}, B[32][8] = {}, C[16][8] = {};
  for (int lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < na; ++i) {
      const Pos p = frag_a(s, lane, i);
      A[p.r][p.c] = frag_elem(w, in, 0, s.a, lane, i, ctx);
    }
    for (int i = 0; i < nb; ++i) {
      const Pos p = frag_b(s, lane, i);
      B[p.r][p.c] = frag_elem(w, in, b_first, s.b, lane, i, ctx);
    }
    for (int i = 0; i < 4; ++i) {
      const Pos p = frag_c(lane, i);
      C[p.r][p.c] = acc_value(s.int_acc, read_operand(w, in.src[c_first + std::size_t(i)], lane, ctx));
    }
  }
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) {
      const Pos p = frag_c(lane, i);
      double acc = 0;
      for (int k = 0; k < s.k; ++k) acc += A[p.r][k] * B[k][p.c];
      if (!s.int_acc) acc = double(float(acc) + float(C[p.r][p.c]));
      else acc = double(std::int32_t(std::uint32_t(std::int64_t(acc) + std::int64_t(C[p.r][p.c]))));
      w.reg(in.dst[std::size_t(i)], lane) = acc_bits(s.int_acc, acc);
    }
}

void exec_ldmatrix(WarpState& w, const Instr& in, const ExecContext& ctx, std::uint32_t mask, Effects& fx) {
  // Lanes 8q..8q+7 give the rows of matrix q (16 bytes each); lane l receives, of each matrix, row
  // l/4's elements 2(l%4) and 2(l%4)+1 (.trans: column l/4's rows 2(l%4) and 2(l%4)+1).
  if (mask != 0xffffffffu)
    workload_error(fmt::format("kernel {}: ldmatrix at {}:{} needs all 32 lanes of the warp active",
                               ctx.program->name, ctx.program->file, in.line));
  std::uint64_t tmp[32];
  const std::uint64_t* base = operand_lanes(w, in.src[0], ctx, tmp);
  const int rows = 8 * in.vec;
  fx.memory = true;
  fx.space = Space::shared;
  fx.bytes = 16;
  fx.mask = rows == 32 ? 0xffffffffu : (1u << rows) - 1;
  for (int l = 0; l < rows; ++l) {
    const std::uint64_t a = (base[l] + std::uint64_t(in.offset)) & 0xffffffffull;
    fx.addr[l] = a;
    if (a & 15) access_error(ctx, w, in, l, a, 16, "misaligned ldmatrix row (rows are 16-byte aligned)");
    if (a + 16 > ctx.shared_bytes) access_error(ctx, w, in, l, a, 16, "out-of-bounds ldmatrix row");
  }
  auto half = [&](int row, int col) {
    std::uint16_t v;
    std::memcpy(&v, ctx.shared + fx.addr[row] + std::uint64_t(2 * col), 2);
    return std::uint64_t(v);
  };
  for (int q = 0; q < in.vec; ++q)
    for (int l = 0; l < 32; ++l) {
      const int r = l / 4, c = 2 * (l % 4);
      const std::uint64_t lo = in.trans ? half(8 * q + c, r) : half(8 * q + r, c);
      const std::uint64_t hi = in.trans ? half(8 * q + c + 1, r) : half(8 * q + r, c + 1);
      w.reg(in.dst[std::size_t(q)], l) = lo | (hi << 16);
    }
}

void exec_wgmma(WarpState& w, const Instr& in, const ExecContext& ctx) {
  // The warp's quarter of the warpgroup: rows 16q..16q+15 of the 64-row tile, all n columns.
  const MmaShape& s = in.mma;
  const int q = w.warp_in_cta % 4, n = s.n;
  std::size_t next = 0;
  double A[16][16] = {};
  if (s.a_regs) {
    MmaShape f = s;
    f.m = 16, f.n = 8;
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < 8; ++i) {
        const Pos p = frag_a(f, lane, i);
        A[p.r][p.c] = frag_elem(w, in, 0, s.a, lane, i, ctx);
      }
    next = 4;
  } else {
    const SmemDesc da = decode_desc(read_operand(w, in.src[0], 0, ctx));
    for (int r = 0; r < 16; ++r)
      for (int k = 0; k < 16; ++k) A[r][k] = shared_elem(ctx, w, in, desc_addr(da, s.trans_a, 16 * q + r, k, 2), s.a);
    next = 1;
  }
  const SmemDesc db = decode_desc(read_operand(w, in.src[next], 0, ctx));
  std::vector<double> Bt(std::size_t(16 * n));  // B transposed: column c's 16 k contiguous
  for (int k = 0; k < 16; ++k)
    for (int c = 0; c < n; ++c)
      Bt[std::size_t(c * 16 + k)] = shared_elem(ctx, w, in, desc_addr(db, s.trans_b, c, k, 2), s.b);
  const double sa = s.neg_a ? -1 : 1, sb = s.neg_b ? -1 : 1;
  const std::size_t acc_first = next + 2;
  for (int lane = 0; lane < 32; ++lane) {
    const bool keep = read_operand(w, in.src[next + 1], lane, ctx) & 1;  // scale-d
    for (int i = 0; i < n / 2; ++i) {
      const Pos p = frag_c(lane, i % 4);
      const int col = 8 * (i / 4) + p.c;
      double acc = 0;
      const double* b = &Bt[std::size_t(col * 16)];
      for (int k = 0; k < 16; ++k) acc += A[p.r][k] * b[k];
      const double c = keep ? acc_value(false, read_operand(w, in.src[acc_first + std::size_t(i)], lane, ctx)) : 0.0;
      w.reg(in.dst[std::size_t(i)], lane) = acc_bits(false, double(float(sa * sb * acc) + float(c)));
    }
  }
}

void exec_cp_async(WarpState& w, const Instr& in, const ExecContext& ctx, std::uint32_t mask, Effects& fx) {
  // Copies now (values), reports the global reads (timing): the copy is asynchronous to the warp,
  // which waits for it only at cp.async.wait_group. Bytes past SRC_SIZE are zero-filled.
  std::uint64_t t0[32], t1[32], t2[32];
  const std::uint64_t* dst = operand_lanes(w, in.src[0], ctx, t0);
  const std::uint64_t* src = operand_lanes(w, in.src[1], ctx, t1);
  const std::uint64_t* size = in.src.size() > 2 ? operand_lanes(w, in.src[2], ctx, t2) : nullptr;
  const int n = in.vec;
  fx.memory = true;
  fx.space = Space::global;
  fx.bytes = n;
  fx.mask = 0;
  for (std::uint32_t m = mask; m; m &= m - 1) {
    const int lane = std::countr_zero(m);
    const std::uint64_t d = (dst[lane] + std::uint64_t(in.offset)) & 0xffffffffull;
    const std::uint64_t a = src[lane] + std::uint64_t(in.offset2);
    const int valid = size ? int(std::min<std::uint64_t>(size[lane] & 0xffffffffull, std::uint64_t(n))) : n;
    if (d % std::uint64_t(n) || a % std::uint64_t(n)) access_error(ctx, w, in, lane, d % std::uint64_t(n) ? d : a, n, "misaligned cp.async");
    if (d + std::uint64_t(n) > ctx.shared_bytes) access_error(ctx, w, in, lane, d, n, "cp.async into shared memory out of bounds");
    std::uint8_t bytes[16] = {};
    if (valid > 0) {
      Buffer* b = ctx.memory->find(a, std::uint64_t(n));
      if (!b) access_error(ctx, w, in, lane, a, n, "out-of-bounds cp.async source");
      ctx.memory->read_bytes(*b, a, n, bytes);
      std::memset(bytes + valid, 0, std::size_t(n - valid));
      fx.addr[lane] = a;
      fx.mask |= 1u << lane;
    }
    std::memcpy(ctx.shared + d, bytes, std::size_t(n));
  }
}

}  // namespace hwsim::warp::detail
