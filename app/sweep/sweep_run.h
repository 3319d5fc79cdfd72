#pragma once
// Runs a sweep: checks the varied keys up front (an unknown key is one line, before anything is
// written), builds what every point shares once in the parent (the chip config when no config key
// varies, the workload when no workload field varies), runs the points in a process pool, and
// streams one row per point to the output in point order, whatever order they finish in. A failing
// point is a row with status "error"; it does not stop the sweep.
#include <map>
#include <string>
#include <vector>

#include "app/sweep/sweep_spec.h"

namespace hwsim {

struct SweepOptions {
  SweepSpec spec;
  std::string out = "-";   // FILE.csv, FILE.jsonl or "-" (CSV on stdout)
  bool resume = false;     // keep the rows already in `out`, run only the missing points
  int jobs = 0;            // child processes at a time; 0 = every available core
  // Many machines (sweep_mpi.h): this process runs the points whose index % ranks == rank; rank 0
  // writes the merged output. One process: rank 0 of 1.
  int rank = 0, ranks = 1;
};

struct SweepSummary {
  std::size_t points = 0, ran = 0, skipped = 0, failed = 0;
  double wall_seconds = 0;
};

SweepSummary run_sweep(const SweepOptions& options);

// The points rank `rank` of `ranks` runs, in index order: index % ranks == rank, except those
// already done (--resume).
std::vector<std::size_t> points_of_rank(std::size_t points, const std::map<std::size_t, std::string>& done, int rank,
                                        int ranks);

// Checks every varied key before anything runs: a config key must be declared for the chip's kind
// (or, on a system, be a system key), a workload field must be one the workload takes. Throws the
// loader's or the workload's one line (with a did-you-mean).
void check_sweep_keys(const SweepSpec& spec, const SweepPoint& first);

}  // namespace hwsim
