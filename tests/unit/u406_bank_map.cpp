// Shared-memory banks: 32 banks of 4 bytes; distinct words in one bank serialise, one word is
// broadcast, stride 33 (padding) is conflict free.
#include <doctest/doctest.h>

#include "models/gpu/warp/bank_map.h"

using namespace hwsim::warp;

static int ways(int stride_words, int bytes = 4) {
  std::uint64_t addr[32];
  for (int l = 0; l < 32; ++l) addr[l] = std::uint64_t(l * stride_words * 4);
  return bank_conflicts(addr, 0xffffffffu, bytes, 32, 4).wavefronts;
}

TEST_CASE("banks: conflict degree by stride") {
  CHECK(ways(1) == 1);
  CHECK(ways(2) == 2);
  CHECK(ways(4) == 4);
  CHECK(ways(8) == 8);
  CHECK(ways(16) == 16);
  CHECK(ways(32) == 32);
  CHECK(ways(33) == 1);
  CHECK(ways(64) == 32);
  CHECK(ways(0) == 1);              // every lane reads one word: broadcast
  CHECK(ways(4, 16) == 4);          // 16-byte lanes: 512 bytes need 4 wavefronts
  std::uint64_t addr[32] = {};
  CHECK(bank_conflicts(addr, 0x0u, 4, 32, 4).wavefronts == 0);
}
