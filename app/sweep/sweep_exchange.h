#pragma once
// Where a sweep's rows go. One process: rows are streamed to the output in point order as soon as
// every earlier point of this process is done (a resumed sweep appends, then rewrites the file in
// point order at the end, atomically). Several MPI ranks (sweep_mpi.h): each rank streams its rows
// to OUT.partRANK (so a killed sweep keeps them), then rank 0 gathers every rank's rows, writes
// the merged output in point order (atomically) and removes the parts.
#include <cstddef>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "app/sweep/sweep_output.h"
#include "app/sweep/sweep_run.h"

namespace hwsim {

class SweepSink {
 public:
  // `done`: rows kept from an earlier run (--resume), by point index. Opens the output (header).
  SweepSink(const SweepOptions& options, SweepFormat format, const std::vector<std::string>& columns,
            std::map<std::size_t, std::string> done, std::size_t points);
  // Point `index` finished: its line. Written once every earlier point of this rank is.
  void add(std::size_t index, std::string line);
  // Flushes, merges (resume, ranks); returns the failed points of the other ranks (rank 0).
  std::size_t finish(std::size_t failed_here);

 private:
  void write(const std::string& line);
  void write_merged(const std::map<std::size_t, std::string>& rows);
  const SweepOptions& options_;
  SweepFormat format_;
  std::vector<std::string> columns_;
  std::map<std::size_t, std::string> done_, pending_, mine_;
  std::size_t next_ = 0, points_ = 0;
  std::string stream_path_;  // the file rows are streamed to ("" = stdout)
  std::ofstream file_;
};

}  // namespace hwsim
