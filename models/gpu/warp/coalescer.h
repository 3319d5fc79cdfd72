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

// An atomic request's lanes on one line: how the L2 performs them (MemorySystem::atomic).
struct LineAtomics {
  int depth = 1;              // the most lanes on one address of the line (performed one after another)
  int words = 1;              // distinct addresses of the line
  std::uint64_t word_mask = 0;  // bit w: the line's w-th 4-byte word (up to 64 words a line)
};

// Per line of `c` (same order), the lanes of an atomic access at `addr` (`mask`) on it.
void line_atomics(const std::uint64_t* addr, std::uint32_t mask, int line_bytes, const Coalesced& c, LineAtomics* out);

}  // namespace hwsim::warp
