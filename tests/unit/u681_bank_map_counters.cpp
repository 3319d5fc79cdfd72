// The bank map's counters: bank_conflicts adds each bank's distinct words of one warp access to
// per-bank counters; bank_words gives one access's map. Hand-computed: 32 banks of 4 B.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "models/gpu/warp/bank_map.h"

using namespace hwsim::warp;

namespace {
std::vector<std::uint64_t> strided(std::uint64_t words_apart) {
  std::vector<std::uint64_t> addr(32);
  for (std::uint64_t lane = 0; lane < 32; ++lane) addr[lane] = lane * words_apart * 4;
  return addr;
}
}  // namespace

TEST_CASE("bank map: stride 32 puts a warp's 32 words on bank 0 (32-way), stride 1 one word on each bank") {
  std::vector<std::uint64_t> counts(32, 0);
  auto a32 = strided(32);
  BankAccess ba = bank_conflicts(a32.data(), 0xffffffffu, 4, 32, 4, counts.data());
  CHECK(ba.wavefronts == 32);
  CHECK(counts[0] == 32);
  CHECK(std::accumulate(counts.begin(), counts.end(), std::uint64_t(0)) == 32);
  auto a1 = strided(1);
  ba = bank_conflicts(a1.data(), 0xffffffffu, 4, 32, 4, counts.data());  // counters accumulate
  CHECK(ba.wavefronts == 1);
  CHECK(counts[0] == 33);
  CHECK(std::all_of(counts.begin() + 1, counts.end(), [](std::uint64_t c) { return c == 1; }));
  auto one = bank_words(a1.data(), 0xffffffffu, 4, 32, 4);
  CHECK(std::all_of(one.begin(), one.end(), [](std::uint64_t c) { return c == 1; }));
}

TEST_CASE("bank map: a broadcast counts its word once and 8-byte lanes fill two words per bank") {
  std::vector<std::uint64_t> same(32, 64);  // every lane reads word 16
  auto map = bank_words(same.data(), 0xffffffffu, 4, 32, 4);
  CHECK(map[16] == 1);
  CHECK(std::accumulate(map.begin(), map.end(), std::uint64_t(0)) == 1);
  std::vector<std::uint64_t> wide(32);
  for (std::uint64_t lane = 0; lane < 32; ++lane) wide[lane] = lane * 8;  // 64 consecutive words
  map = bank_words(wide.data(), 0xffffffffu, 8, 32, 4);
  CHECK(std::all_of(map.begin(), map.end(), [](std::uint64_t c) { return c == 2; }));
  CHECK(bank_conflicts(wide.data(), 0xffffffffu, 8, 32, 4).wavefronts == 2);
  map = bank_words(wide.data(), 0x0000000fu, 8, 32, 4);  // four lanes: words 0..7
  CHECK(std::accumulate(map.begin(), map.end(), std::uint64_t(0)) == 8);
  CHECK(map[7] == 1);
  CHECK(map[8] == 0);
}
