#include "models/systolic/mxu_timing.h"
#include "sim/arith.h"

#include <algorithm>

namespace hwsim {

FoldShape map_gemm(Dataflow d, std::int64_t m, std::int64_t n, std::int64_t k) {
  switch (d) {
    case Dataflow::os: return {m, n, k};
    case Dataflow::ws: return {k, n, m};
    case Dataflow::is: return {k, m, n};
  }
  return {k, n, m};
}

FoldCount count_folds(const FoldShape& s, int rows, int cols) {
  FoldCount f;
  f.row_folds = ceil_div(s.sr, rows);
  f.col_folds = ceil_div(s.sc, cols);
  double cells = double(f.folds()) * rows * cols;
  f.efficiency = cells > 0 ? double(s.sr) * double(s.sc) / cells : 0;
  return f;
}

int fold_load_cycles(const SystolicChip& chip) {
  return chip.dataflow == Dataflow::os && chip.os_drain == OsDrain::overlapped ? 0 : chip.rows;
}

std::int64_t fold_cycles(int rows, int cols, std::int64_t t, int load) {
  std::int64_t l = load == kLoadR ? rows : load;
  return l + std::int64_t(rows) + cols + t - 2;
}

std::int64_t chain_cycles(Preload p, int rows, int cols, std::int64_t t, std::int64_t folds, int load) {
  if (folds <= 0) return 0;
  if (p == Preload::serial) return folds * fold_cycles(rows, cols, t, load);
  std::int64_t r = rows, c = cols, l = load == kLoadR ? rows : load;
  return l + folds * std::max(t, r) + (r - 1) + (c - 1);
}

std::int64_t chain_once_cycles(Preload p, int rows, int cols, int load) {
  if (p == Preload::serial) return 0;
  return (load == kLoadR ? rows : load) + std::int64_t(rows) + cols - 2;
}

std::int64_t chain_fill_cycles(Preload p, int rows, int cols, std::int64_t t, std::int64_t folds, int load) {
  // Everything but the T cycles per fold that stream rows.
  return chain_cycles(p, rows, cols, t, folds, load) - folds * t;
}

BlockTiming time_block(const SystolicChip& chip, std::int64_t m, std::int64_t n, std::int64_t k,
                       std::int64_t chained) {
  BlockTiming b;
  FoldShape shape = map_gemm(chip.dataflow, m, n, k);
  FoldCount count = count_folds(shape, chip.rows, chip.cols);
  b.folds = count.folds() * chained;
  b.fold_efficiency = count.efficiency;
  std::int64_t per_array = ceil_div(b.folds, chip.mxus);
  int load = fold_load_cycles(chip);
  b.cycles = chain_cycles(chip.preload, chip.rows, chip.cols, shape.t, per_array, load);
  b.fill_cycles = chain_fill_cycles(chip.preload, chip.rows, chip.cols, shape.t, per_array, load);
  b.once_cycles = per_array > 0 ? chain_once_cycles(chip.preload, chip.rows, chip.cols, load) : 0;
  b.useful_macs = double(m) * double(n) * double(k) * double(chained);
  return b;
}

}  // namespace hwsim
