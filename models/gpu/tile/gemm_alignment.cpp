#include "models/gpu/tile/gemm_alignment.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace hwsim {
namespace {

constexpr int kFastPathBytes = 16;  // TMA pitch and base alignment; the widest vector access

// The largest power of two (at most 16) dividing `bytes`; 16 for 0.
int alignment_of(double bytes) {
  if (bytes <= 0) return kFastPathBytes;
  auto whole = std::int64_t(std::llround(bytes));
  if (double(whole) != bytes) return 1;  // sub-byte pitch (packed int4 rows of odd length)
  int a = 1;
  while (a < kFastPathBytes && whole % (2 * a) == 0) a *= 2;
  return a;
}

struct Matrix {
  const char* name;      // "x", "W", "out"
  const char* dim;       // the dimension that is the packed pitch: "K", "K", "N"
  std::int64_t pitch;    // elements between rows
  bool packed;           // pitch is the dimension itself
  std::int64_t offset;   // elements from an aligned base
  double element;        // bytes per element
};

// Alignment of one matrix and, when below 16, the sentence that says why.
int check(const Matrix& m, std::string& reason) {
  int by_pitch = alignment_of(double(m.pitch) * m.element);
  int by_base = alignment_of(double(m.offset) * m.element);
  int a = std::min(by_pitch, by_base);
  if (a >= kFastPathBytes || !reason.empty()) return a;
  int per_vector = int(std::lround(kFastPathBytes / m.element));
  if (by_pitch < kFastPathBytes)
    reason = m.packed ? fmt::format("{}={} is not a multiple of {}", m.dim, m.pitch, per_vector)
                      : fmt::format("{}'s leading dimension {} is not a multiple of {}", m.name, m.pitch, per_vector);
  else
    reason = fmt::format("{} starts {} elements past an aligned address", m.name, m.offset);
  reason += fmt::format(" ({} rows {}-byte aligned): no TMA, {}-byte loads", m.name, a, a);
  return a;
}

}  // namespace

int GemmAlignment::vector_bytes() const { return std::min({a, b, c}); }

GemmAlignment gemm_alignment(const GemmOp& g) {
  const GemmLayout& l = g.layout;
  // A packed row's pitch: the dimension itself, or padded to whole 16-byte vectors by the runtime.
  auto pitch = [&](std::int64_t given, std::int64_t dim, DType t) {
    if (given > 0) return given;
    if (!g.runtime_pads_rows) return dim;
    auto per_vector = std::max<std::int64_t>(1, std::int64_t(std::lround(kFastPathBytes / bytes_per_element(t))));
    return (dim + per_vector - 1) / per_vector * per_vector;
  };
  GemmAlignment out;
  out.a = check({"x", "K", pitch(l.lda, g.k, g.a), l.lda <= 0, l.offset_a, bytes_per_element(g.a)}, out.reason);
  out.b = check({"W", "K", pitch(l.ldb, g.k, g.b), l.ldb <= 0, l.offset_b, bytes_per_element(g.b)}, out.reason);
  out.c = check({"out", "N", pitch(l.ldc, g.n, g.out), l.ldc <= 0, l.offset_c, bytes_per_element(g.out)}, out.reason);
  return out;
}

}  // namespace hwsim
