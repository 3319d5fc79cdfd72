#include "models/gpu/warp/coalescer.h"

#include <algorithm>
#include <bit>

namespace hwsim::warp {

int Coalesced::sectors() const {
  int n = 0;
  for (int i = 0; i < count; ++i) n += std::popcount(lines[i].sectors);
  return n;
}

Coalesced coalesce(const std::uint64_t* addr, std::uint32_t mask, int bytes, int line_bytes, int sector_bytes) {
  Coalesced c;
  // sectors and lines are powers of two on every real chip: shifts instead of divisions
  const bool pow2 = (sector_bytes & (sector_bytes - 1)) == 0 && (line_bytes & (line_bytes - 1)) == 0 &&
                    line_bytes >= sector_bytes;
  const int sector_shift = std::countr_zero(unsigned(sector_bytes));
  const int per_line_shift = std::countr_zero(unsigned(line_bytes)) - sector_shift;
  auto add = [&](std::uint64_t line, std::uint32_t bit) {
    int i = c.count - 1;
    // lanes usually continue the previous line: check it first, then search
    if (i < 0 || c.lines[i].line != line) {
      for (i = 0; i < c.count && c.lines[i].line != line; ++i) {}
      if (i == c.count) c.lines[c.count++] = LineRequest{line, 0};
    }
    c.lines[i].sectors |= bit;
  };
  // the common cases: a whole warp at consecutive addresses (coalesced), or every active lane at
  // one address (a broadcast): their sectors in address order, as the lanes would add them
  auto add_range = [&](std::uint64_t from, std::uint64_t end) {
    for (std::uint64_t s = from >> sector_shift; s <= (end - 1) >> sector_shift; ++s)
      add(s >> per_line_shift, 1u << (s & ((std::uint64_t(1) << per_line_shift) - 1)));
  };
  if (pow2 && mask == 0xffffffffu) {
    bool consecutive = true, same = true;
    for (int lane = 1; lane < 32; ++lane) {
      consecutive &= addr[lane] == addr[0] + std::uint64_t(lane) * std::uint64_t(bytes);
      same &= addr[lane] == addr[0];
    }
    if (consecutive) return add_range(addr[0], addr[0] + 32 * std::uint64_t(bytes)), c;
    if (same) return add_range(addr[0], addr[0] + std::uint64_t(bytes)), c;
  }
  for (std::uint32_t m = mask; m; m &= m - 1) {
    const int lane = std::countr_zero(m);
    std::uint64_t first = addr[lane], last = addr[lane] + std::uint64_t(bytes) - 1;
    std::uint64_t s0 = pow2 ? first >> sector_shift : first / std::uint64_t(sector_bytes);
    std::uint64_t s1 = pow2 ? last >> sector_shift : last / std::uint64_t(sector_bytes);
    for (std::uint64_t s = s0; s <= s1; ++s) {
      std::uint64_t line = pow2 ? s >> per_line_shift : s * std::uint64_t(sector_bytes) / std::uint64_t(line_bytes);
      std::uint32_t bit = 1u << (pow2 ? s & ((std::uint64_t(1) << per_line_shift) - 1)
                                      : s * std::uint64_t(sector_bytes) % std::uint64_t(line_bytes) / std::uint64_t(sector_bytes));
      add(line, bit);
    }
  }
  return c;
}

void line_atomics(const std::uint64_t* addr, std::uint32_t mask, int line_bytes, const Coalesced& c, LineAtomics* out) {
  for (int i = 0; i < c.count; ++i) {
    LineAtomics a;
    a.depth = a.words = 0;
    std::uint32_t left = 0;  // the lanes on this line
    for (std::uint32_t m = mask; m; m &= m - 1)
      if (addr[std::countr_zero(m)] / std::uint64_t(line_bytes) == c.lines[i].line) left |= 1u << std::countr_zero(m);
    while (left) {  // one distinct address at a time: its lanes
      const std::uint64_t at = addr[std::countr_zero(left)];
      int same = 0;
      for (std::uint32_t m = left; m; m &= m - 1)
        if (addr[std::countr_zero(m)] == at) ++same, left &= ~(1u << std::countr_zero(m));
      a.depth = std::max(a.depth, same);
      ++a.words;
      a.word_mask |= std::uint64_t(1) << ((at % std::uint64_t(line_bytes)) / 4 % 64);
    }
    out[i] = a;
  }
}

}  // namespace hwsim::warp
