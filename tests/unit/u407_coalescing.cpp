// LSU coalescing into 32-byte sectors of 128-byte lines.
#include <doctest/doctest.h>

#include "models/gpu/warp/coalescer.h"

using namespace hwsim::warp;

static Coalesced strided(int stride_words, int bytes = 4, std::uint64_t base = 4096) {
  std::uint64_t addr[32];
  for (int l = 0; l < 32; ++l) addr[l] = base + std::uint64_t(l * stride_words * 4);
  return coalesce(addr, 0xffffffffu, bytes, 128, 32);
}

TEST_CASE("coalescing: sectors and lines per warp request") {
  CHECK(strided(1).sectors() == 4);
  CHECK(strided(1).count == 1);
  CHECK(strided(2).sectors() == 8);
  CHECK(strided(4).sectors() == 16);
  CHECK(strided(8).sectors() == 32);
  CHECK(strided(8).count == 8);
  CHECK(strided(32).sectors() == 32);
  CHECK(strided(32).count == 32);
  CHECK(strided(4, 16).sectors() == 16);          // float4 per lane, contiguous: 512 B
  CHECK(strided(1, 4, 4096 + 4).count == 2);      // misaligned warp: spills into a second line
  CHECK(strided(0).sectors() == 1);               // all lanes one word
}
