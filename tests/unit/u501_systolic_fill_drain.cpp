// Fill and drain of a systolic array: one fold costs 2R + C + T - 2 cycles (SCALE-Sim's analytical
// count: R to load the stationary operand, T to stream, R - 1 skew, C - 1 drain); serial folds
// repeat it; overlapped preload (TPU) pays the load, skew and drain once per chain.
#include <doctest/doctest.h>

#include "models/systolic/mxu_timing.h"

using namespace hwsim;

TEST_CASE("systolic fill/drain: one fold alone") {
  CHECK(fold_cycles(128, 128, 1) == 2 * 128 + 128 + 1 - 2);    // 383: a GEMV row is almost all fill
  CHECK(fold_cycles(128, 128, 1024) == 1406);
  CHECK(fold_cycles(256, 256, 8) == 774);
  // Alone, the two preload modes agree.
  CHECK(chain_cycles(Preload::overlapped, 128, 128, 1024, 1) == fold_cycles(128, 128, 1024));
}

TEST_CASE("systolic fill/drain: a chain of folds, serial versus overlapped") {
  const std::int64_t n = 10, t = 512;
  CHECK(chain_cycles(Preload::serial, 128, 128, t, n) == n * (2 * 128 + 128 + t - 2));       // 8940
  CHECK(chain_cycles(Preload::overlapped, 128, 128, t, n) == 128 + n * t + 127 + 127);        // 5502
  // Short streams (T < R): the next fold's load cannot hide behind a stream shorter than itself.
  CHECK(chain_cycles(Preload::overlapped, 128, 128, 8, n) == 128 + n * 128 + 127 + 127);
  // Fill and drain: everything that is not streaming useful rows.
  CHECK(chain_fill_cycles(Preload::overlapped, 128, 128, t, n) == 128 + 127 + 127);
  CHECK(chain_fill_cycles(Preload::serial, 128, 128, t, n) == n * (2 * 128 + 128 - 2));
  CHECK(chain_fill_cycles(Preload::overlapped, 128, 128, 8, n) == 128 + n * 120 + 127 + 127);
}
