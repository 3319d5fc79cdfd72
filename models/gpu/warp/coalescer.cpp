#include "models/gpu/warp/coalescer.h"

#include <bit>

namespace hwsim::warp {

int Coalesced::sectors() const {
  int n = 0;
  for (int i = 0; i < count; ++i) n += std::popcount(lines[i].sectors);
  return n;
}

Coalesced coalesce(const std::uint64_t* addr, std::uint32_t mask, int bytes, int line_bytes, int sector_bytes) {
  Coalesced c;
  for (int lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1)) continue;
    std::uint64_t first = addr[lane], last = addr[lane] + std::uint64_t(bytes) - 1;
    for (std::uint64_t s = first / sector_bytes; s <= last / sector_bytes; ++s) {
      std::uint64_t line = s * sector_bytes / line_bytes;
      std::uint32_t bit = 1u << (s * sector_bytes % line_bytes / sector_bytes);
      int i = c.count - 1;
      // lanes usually continue the previous line: check it first, then search
      if (i < 0 || c.lines[i].line != line) {
        for (i = 0; i < c.count && c.lines[i].line != line; ++i) {}
        if (i == c.count) c.lines[c.count++] = LineRequest{line, 0};
      }
      c.lines[i].sectors |= bit;
    }
  }
  return c;
}

}  // namespace hwsim::warp
