#pragma once
// LSU coalescing: a warp's global addresses become requests for 32-byte sectors, grouped by
// 128-byte line (one L1 tag lookup per line). The order is the order of first appearance, so the
// result is deterministic.
#include <cstdint>

namespace hwsim::warp {

struct LineRequest {
  std::uint64_t line;         // address / line_bytes
  std::uint32_t sectors;      // bit s: sector s of the line
};

struct Coalesced {
  LineRequest lines[64];      // a warp touches at most 32 lanes × 2 lines (16-byte accesses); [0, count) set
  int count = 0;
  int sectors() const;
};

Coalesced coalesce(const std::uint64_t* addr, std::uint32_t mask, int bytes, int line_bytes, int sector_bytes);

}  // namespace hwsim::warp
