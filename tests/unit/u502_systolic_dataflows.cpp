// The three dataflows map out[M,N] = x[M,K]·W[N,K]ᵀ onto the array as SCALE-Sim does
// (os: Sr=M, Sc=N, T=K; ws: Sr=K, Sc=N, T=M; is: Sr=K, Sc=M, T=N); with serial preload the
// cycles are SCALE-Sim's folds × (2R + C + T − 2), checked here by hand on one array.
#include <doctest/doctest.h>

#include "models/systolic/mxu_timing.h"

using namespace hwsim;

namespace {
SystolicChip one_array(Dataflow d) {
  SystolicChip c;
  c.rows = c.cols = 128;
  c.mxus = 1;
  c.dataflow = d;
  c.preload = Preload::serial;
  return c;
}
}  // namespace

TEST_CASE("systolic dataflows: M=256, N=384, K=640 on one 128x128 array") {
  const std::int64_t M = 256, N = 384, K = 640;
  // os: folds ceil(256/128) x ceil(384/128) = 2 x 3, T = K = 640.
  BlockTiming os = time_block(one_array(Dataflow::os), M, N, K);
  CHECK(os.folds == 6);
  CHECK(os.cycles == 6 * (256 + 128 + 640 - 2));   // 6132
  // ws: folds ceil(640/128) x ceil(384/128) = 5 x 3, T = M = 256.
  BlockTiming ws = time_block(one_array(Dataflow::ws), M, N, K);
  CHECK(ws.folds == 15);
  CHECK(ws.cycles == 15 * (256 + 128 + 256 - 2));  // 9570
  // is: folds ceil(640/128) x ceil(256/128) = 5 x 2, T = N = 384.
  BlockTiming is = time_block(one_array(Dataflow::is), M, N, K);
  CHECK(is.folds == 10);
  CHECK(is.cycles == 10 * (256 + 128 + 384 - 2));  // 7660
  // Same useful work, all folds full here.
  CHECK(os.useful_macs == ws.useful_macs);
  CHECK(ws.fold_efficiency == doctest::Approx(1.0));
}

TEST_CASE("systolic dataflows: the mapping decides which small dimension wastes the array") {
  // A decode GEMV (M = 1): weight-stationary keeps the array full of weights (T = 1 is short),
  // output-stationary leaves 127 of 128 rows empty.
  BlockTiming ws = time_block(one_array(Dataflow::ws), 1, 1024, 1024);
  BlockTiming os = time_block(one_array(Dataflow::os), 1, 1024, 1024);
  CHECK(ws.fold_efficiency == doctest::Approx(1.0));
  CHECK(os.fold_efficiency == doctest::Approx(1.0 / 128));
  CHECK(ws.cycles == 64 * (256 + 128 + 1 - 2));
  CHECK(os.cycles == 8 * (256 + 128 + 1024 - 2));
}
