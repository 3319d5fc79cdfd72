// FlashAttention's split-KV heuristic (flash_api.cpp num_splits_heuristic), worked by hand.
#include <doctest/doctest.h>

#include "models/gpu/tile/flash_attention_lowering.h"

using namespace hwsim;

TEST_CASE("flash split heuristic: no split when the CTAs nearly fill the slots") {
  // 0.8 · 264 = 211.2: 212 CTAs are enough.
  CHECK(flash_num_splits(212, 264, 64, 128) == 1);
  CHECK(flash_num_splits(1000, 264, 64, 128) == 1);
}

TEST_CASE("flash split heuristic: the fewest eligible splits within 85 % of the best wave efficiency") {
  // 8 CTAs, 264 slots, 64 key blocks: splits ≤ 64, efficiency 8s/264 below one wave. A split count
  // is eligible only when it changes ceil(64/s): 28..31 all give 3 blocks per split (as 27 does)
  // and 33 gives 2 (as 32 does). The best eligible is s = 32 (256/264 = 0.970), the bar
  // 0.85 · 0.970 = 0.824; s = 27 reaches 216/264 = 0.818: 32.
  CHECK(flash_num_splits(8, 264, 64, 128) == 32);
  // One key block: nothing to split.
  CHECK(flash_num_splits(8, 264, 1, 128) == 1);
  // 100 CTAs: the best eligible efficiency is near 1 (s = 13: 1300/1320 = 0.985), so the bar is
  // 0.85 · 0.985 = 0.84; s = 1..4 give 0.38, 0.76, 0.57 (1.14 waves), 0.76; s = 5 gives 500/528 = 0.947.
  CHECK(flash_num_splits(100, 264, 64, 128) == 5);
}
