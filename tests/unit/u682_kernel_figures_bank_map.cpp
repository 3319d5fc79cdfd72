// The bank map the warp model keeps (per-bank counters per shared-memory instruction), through
// kernel_figures: bank_conflict.hwk with one warp (block 32). Lane l reads word
// l*stride + it*64 (mod 8192), so its bank is (l*stride) mod 32: stride 32 puts all 32 words of
// every request on bank 0 (32-way), stride 1 one word on each bank (conflict free). The fill
// loop's store (s[i] = ..., i = tid + k*32) is conflict free: 8192 / 32 = 256 requests.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "models/gpu/warp/kernel_figures.h"
#include "u4_warp_support.h"

using namespace hwsim::warp;

namespace {
KernelFigures figures(const char* stride, std::int64_t block = 32) {
  auto r = test::run_file("bank_conflict", 1, block, {{"stride", stride}, {"iters", "256"}});
  return kernel_figures(*r);
}
}  // namespace

TEST_CASE("kernel figures: stride 32 puts every load on bank 0, 32-way, and the store spreads over 32 banks") {
  KernelFigures f = figures("32");
  REQUIRE(f.shared.size() == 5);  // the fill's st.shared and the loop's four ld.shared
  const BankRow& fill = f.shared[0];
  CHECK(fill.text.rfind("st.shared", 0) == 0);
  CHECK(fill.requests == 256);
  CHECK(fill.ways == 1.0);
  CHECK(fill.banks_hit == 32);
  CHECK(std::all_of(fill.words.begin(), fill.words.end(), [](std::uint64_t w) { return w == 256; }));
  for (std::size_t i = 1; i < 5; ++i) {
    const BankRow& load = f.shared[i];
    CHECK(load.requests == 64);  // iters 256, four loads per trip
    CHECK(load.ways == 32.0);
    CHECK(load.worst_ways == 32);
    CHECK(load.banks_hit == 1);
    CHECK(load.words[0] == 64 * 32);
    CHECK(load.used_by[0] == 64);
    CHECK(load.ways_per_bank[0] == 32.0);
    CHECK(load.ways_per_bank[1] == 0.0);
    CHECK(load.worst_warp[0] == 32);
    CHECK(load.worst_bank == 0);
  }
  // the conflicts' replays dominate at 256 iterations: one warp waits on its conflicting loads
  // (short_scoreboard) or on the backed-up shared pipe (mio_throttle) more than on anything else
  double shares = 0, conflicts = 0, other = 0;
  for (const auto& s : f.stalls) {
    shares += s.share;
    if (s.stall == Stall::short_scoreboard || s.stall == Stall::mio_throttle) conflicts += s.share;
    else other = std::max(other, s.share);
  }
  CHECK(conflicts > other);
  CHECK(shares == doctest::Approx(1.0));
}

TEST_CASE("kernel figures: stride 1 spreads each load over the 32 banks, one word each") {
  KernelFigures f = figures("1");
  REQUIRE(f.shared.size() == 5);
  for (std::size_t i = 1; i < 5; ++i) {
    const BankRow& load = f.shared[i];
    CHECK(load.ways == 1.0);
    CHECK(load.banks_hit == 32);
    CHECK(std::all_of(load.words.begin(), load.words.end(), [](std::uint64_t w) { return w == 64; }));
    CHECK(std::all_of(load.worst_warp.begin(), load.worst_warp.end(), [](std::uint64_t w) { return w == 1; }));
  }
  CHECK(f.instructions.size() > 5);
  CHECK(f.instructions[std::size_t(f.shared[1].pc)].ways == 1.0);
}

TEST_CASE("kernel figures: with 16 warps at stride 32, warp w's loads all land on bank w, 32 ways each") {
  KernelFigures f = figures("32", 512);  // word l*32 + w + it*64: bank w for every lane
  REQUIRE(f.shared.size() == 5);
  const BankRow& load = f.shared[1];
  CHECK(load.requests == 16 * 64);
  CHECK(load.banks_hit == 16);
  for (std::size_t b = 0; b < 32; ++b) {
    CHECK(load.used_by[b] == (b < 16 ? 64u : 0u));
    CHECK(load.ways_per_bank[b] == (b < 16 ? 32.0 : 0.0));
  }
}
