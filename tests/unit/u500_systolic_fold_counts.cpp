// Folds of a GEMM on one systolic array, and how much of the array they occupy (SCALE-Sim's
// mapping efficiency): shapes that fill the 128x128 array and shapes that do not.
#include <doctest/doctest.h>

#include "models/systolic/mxu_timing.h"

using namespace hwsim;

TEST_CASE("systolic folds: a 512x384 spatial shape fills a 128x128 array exactly") {
  FoldCount f = count_folds(FoldShape{512, 384, 64}, 128, 128);
  CHECK(f.row_folds == 4);
  CHECK(f.col_folds == 3);
  CHECK(f.folds() == 12);
  CHECK(f.efficiency == doctest::Approx(1.0));
}

TEST_CASE("systolic folds: partial folds waste cells") {
  // 200 rows: folds of 128 and 72 rows; 130 columns: folds of 128 and 2 columns.
  FoldCount f = count_folds(FoldShape{200, 130, 64}, 128, 128);
  CHECK(f.folds() == 4);
  CHECK(f.efficiency == doctest::Approx(200.0 * 130.0 / (4 * 128.0 * 128.0)));  // 0.397
  // A decode GEMV mapped output-stationary: one output row uses 1/128 of the rows.
  FoldCount gemv = count_folds(map_gemm(Dataflow::os, 1, 4096, 4096), 128, 128);
  CHECK(gemv.folds() == 32);
  CHECK(gemv.efficiency == doctest::Approx(1.0 / 128));
}

TEST_CASE("systolic folds: a block's folds spread over the MXUs of a TensorCore") {
  SystolicChip chip;
  chip.rows = chip.cols = 128;
  chip.mxus = 4;
  chip.dataflow = Dataflow::ws;
  chip.preload = Preload::serial;
  // ws: Sr = K = 512 (4 row folds), Sc = N = 256 (2 column folds): 8 folds, 2 per MXU.
  BlockTiming b = time_block(chip, 64, 256, 512);
  CHECK(b.folds == 8);
  CHECK(b.cycles == 2 * (2 * 128 + 128 + 64 - 2));
  CHECK(b.useful_macs == 64.0 * 256 * 512);
  // 9 folds: the busiest MXU runs 3, the others 2 — a partial wave across MXUs.
  BlockTiming c = time_block(chip, 64, 384, 384);
  CHECK(c.folds == 9);
  CHECK(c.cycles == 3 * (2 * 128 + 128 + 64 - 2));
}
