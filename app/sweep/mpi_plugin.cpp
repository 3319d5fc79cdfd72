// libhwsim_mpi.so: the MPI calls of a sweep over ranks (app/sweep/mpi_plugin_api.h says why they
// live apart). Built only when CMake finds MPI.
#include "app/sweep/mpi_plugin_api.h"

#include <cstddef>
#include <vector>

#define OMPI_SKIP_MPICXX 1  // the C API only: the deprecated C++ bindings warn under -Wextra
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

namespace {

void start(int* rank, int* ranks) {
  MPI_Init(nullptr, nullptr);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, ranks);
}

void stop() { MPI_Finalize(); }

void gather(const std::string& mine, long long failed, std::string* all, long long* failed_total) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  long long size = static_cast<long long>(mine.size());
  const auto n = static_cast<std::size_t>(ranks);
  std::vector<long long> sizes(n, 0);
  MPI_Gather(&size, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  MPI_Reduce(&failed, failed_total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  std::vector<int> counts(n, 0), offsets(n, 0);
  int total = 0;
  for (std::size_t r = 0; r < n; ++r) {
    counts[r] = static_cast<int>(sizes[r]);
    offsets[r] = total;
    total += counts[r];
  }
  std::vector<char> buffer(rank == 0 ? std::size_t(total) + 1 : 1);
  MPI_Gatherv(mine.data(), int(size), MPI_CHAR, buffer.data(), counts.data(), offsets.data(), MPI_CHAR, 0,
              MPI_COMM_WORLD);
  if (rank == 0) all->assign(buffer.data(), std::size_t(total));
}

constexpr hwsim::MpiPluginApi kApi{start, stop, gather};

}  // namespace

extern "C" __attribute__((visibility("default"))) const hwsim::MpiPluginApi* hwsim_mpi_plugin_api() { return &kApi; }
