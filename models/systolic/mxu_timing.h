#pragma once
// Fold arithmetic of one systolic array (pure, no SystemC), after SCALE-Sim's analytical model
// (scalesim/compute/systolic_compute_{os,ws,is}.py):
//  - a GEMM out[M,N] = x[M,K]·W[N,K]ᵀ maps two of its dimensions onto the array (spatial rows Sr,
//    spatial columns Sc) and streams the third through it (temporal T), per dataflow:
//      os: Sr = M, Sc = N, T = K     ws: Sr = K, Sc = N, T = M     is: Sr = K, Sc = M, T = N
//  - it takes ceil(Sr/R) × ceil(Sc/C) folds; a partial fold leaves cells idle;
//  - one fold alone costs 2R + C + T − 2 cycles: R to load the stationary operand, T to stream,
//    R − 1 of input skew and C − 1 to drain the last partial sum (SCALE-Sim pads partial folds to
//    the full array, so R and C are the array's, not the fold's); output-stationary with its drain
//    overlapped (SCALE-Sim v2/v3's code) loads nothing and costs R + C + T − 2.
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

// Cycles a fold spends on its stationary operand that its own stream cannot hide: R to shift the
// operand in, or — output-stationary with the drain overlapped (OsDrain::overlapped) — none (the
// results leave under the skew and the next fold's stream). kLoadR (-1) stands for R.
constexpr int kLoadR = -1;
int fold_load_cycles(const SystolicChip& chip);

// Cycles of one fold run alone: load + R + C + T − 2 (2R + C + T − 2 with load R).
std::int64_t fold_cycles(int rows, int cols, std::int64_t t, int load = kLoadR);

// Cycles of `folds` folds of temporal length t run back to back on one array: serial, folds ×
// fold_cycles; overlapped, load + folds·max(T, R) + R + C − 2 (each later load, or drain, under
// the previous fold's stream).
std::int64_t chain_cycles(Preload p, int rows, int cols, std::int64_t t, std::int64_t folds, int load = kLoadR);

// Of a chain's cycles, those paid once whatever its length: overlapped, the first load, the skew
// and the drain (load + R + C − 2); serial, none (every fold pays its own). A pipeline of steps
// keeps its arrays' chain going from step to step (the next step's first operand loads under the
// last fold of this one), so a phase pays these once, not once per step.
std::int64_t chain_once_cycles(Preload p, int rows, int cols, int load = kLoadR);

// Of those cycles, the ones that are not streaming useful rows: loads that are not hidden, the
// skew and the drain (the pipeline fill and drain a breakdown reports as overhead).
std::int64_t chain_fill_cycles(Preload p, int rows, int cols, std::int64_t t, std::int64_t folds,
                               int load = kLoadR);

// A block of a GEMM on one TensorCore: its folds spread over `mxus` arrays (each array runs a
// chain of ceil(folds / mxus) folds).
struct BlockTiming {
  std::int64_t folds = 0;          // folds of the block, all arrays together
  double fold_efficiency = 0;      // mapping efficiency of those folds
  std::int64_t cycles = 0;         // of the busiest array
  std::int64_t fill_cycles = 0;    // of which pipeline fill and drain
  std::int64_t once_cycles = 0;    // of those, the chain's one-time part (chain_once_cycles)
  double useful_macs = 0;          // M·N·K of the block
};

// `chained` independent blocks of this shape (the groups of a batched GEMM packed into one pipeline
// step) run as one chain: their folds follow each other on the arrays, each stationary-operand
// load hidden under the previous fold's stream (overlapped preload), one skew and drain at the end.
BlockTiming time_block(const SystolicChip& chip, std::int64_t m, std::int64_t n, std::int64_t k,
                       std::int64_t chained = 1);

}  // namespace hwsim
