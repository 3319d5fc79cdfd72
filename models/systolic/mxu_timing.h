#pragma once
// Fold arithmetic of one systolic array (pure, no SystemC), after SCALE-Sim's analytical model
// (scalesim/compute/systolic_compute_{os,ws,is}.py):
//  - a GEMM out[M,N] = x[M,K]·W[N,K]ᵀ maps two of its dimensions onto the array (spatial rows Sr,
//    spatial columns Sc) and streams the third through it (temporal T), per dataflow:
//      os: Sr = M, Sc = N, T = K     ws: Sr = K, Sc = N, T = M     is: Sr = K, Sc = M, T = N
//  - it takes ceil(Sr/R) × ceil(Sc/C) folds; a partial fold leaves cells idle;
//  - one fold alone costs 2R + C + T − 2 cycles: R to load the stationary operand, T to stream,
//    R − 1 of input skew and C − 1 to drain the last partial sum (SCALE-Sim pads partial folds to
//    the full array, so R and C are the array's, not the fold's).
// Serial preload repeats that per fold (SCALE-Sim). Overlapped preload (TPU: weights are double-
// buffered in the array) shifts the next fold's operand in while the current one streams, so a
// chain of n folds on one array costs R + n·max(T, R) + (R − 1) + (C − 1): one exposed load, then
// each fold as long as the longer of its stream and the next load, then one skew and drain.
#include <cstdint>

#include "models/systolic/systolic_chip.h"

namespace hwsim {

struct FoldShape {
  std::int64_t sr = 0, sc = 0, t = 0;   // spatial rows, spatial columns, temporal length
};

// The dataflow's mapping of out[M,N] = x[M,K]·W[N,K]ᵀ onto the array.
FoldShape map_gemm(Dataflow d, std::int64_t m, std::int64_t n, std::int64_t k);

struct FoldCount {
  std::int64_t row_folds = 0, col_folds = 0;
  std::int64_t folds() const { return row_folds * col_folds; }
  // Fraction of the cells the folds occupy: Sr·Sc / (folds·R·C) (SCALE-Sim's mapping efficiency).
  double efficiency = 0;
};

FoldCount count_folds(const FoldShape& s, int rows, int cols);

// Cycles of one fold run alone: 2R + C + T − 2.
std::int64_t fold_cycles(int rows, int cols, std::int64_t t);

// Cycles of `folds` folds of temporal length t run back to back on one array.
std::int64_t chain_cycles(Preload p, int rows, int cols, std::int64_t t, std::int64_t folds);

// Of those cycles, the ones that are not streaming useful rows: loads that are not hidden, the
// skew and the drain (the pipeline fill and drain a breakdown reports as overhead).
std::int64_t chain_fill_cycles(Preload p, int rows, int cols, std::int64_t t, std::int64_t folds);

// A block of a GEMM on one TensorCore: its folds spread over `mxus` arrays (each array runs a
// chain of ceil(folds / mxus) folds).
struct BlockTiming {
  std::int64_t folds = 0;          // folds of the block, all arrays together
  double fold_efficiency = 0;      // mapping efficiency of those folds
  std::int64_t cycles = 0;         // of the busiest array
  std::int64_t fill_cycles = 0;    // of which pipeline fill and drain
  double useful_macs = 0;          // M·N·K of the block
};

// `chained` independent blocks of this shape (the groups of a batched GEMM packed into one pipeline
// step) run as one chain: their folds follow each other on the arrays, each stationary-operand
// load hidden under the previous fold's stream (overlapped preload), one skew and drain at the end.
BlockTiming time_block(const SystolicChip& chip, std::int64_t m, std::int64_t n, std::int64_t k,
                       std::int64_t chained = 1);

}  // namespace hwsim
