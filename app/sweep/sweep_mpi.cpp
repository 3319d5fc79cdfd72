#include "app/sweep/sweep_mpi.h"

#include <cstdlib>
#include <cstring>
#include <vector>

#include "sim/error.h"

#ifdef HWSIM_HAVE_MPI
#define OMPI_SKIP_MPICXX 1   // the C API only: the deprecated C++ bindings warn under -Wextra
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace hwsim {

namespace {
// A launcher's environment: Open MPI's, MPICH/Hydra's or Slurm's PMI.
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(v)) return true;
  return false;
}
}  // namespace

#ifdef HWSIM_HAVE_MPI
namespace {
bool started = false;

// "index\tline" records, one after another (a line ends in '\n' and holds no tab at its start).
std::string pack(const std::map<std::size_t, std::string>& rows) {
  std::string out;
  for (const auto& [index, line] : rows) out += std::to_string(index) + '\t' + line;
  return out;
}

void unpack(const char* data, std::size_t size, std::map<std::size_t, std::string>& rows) {
  std::size_t at = 0;
  while (at < size) {
    std::size_t tab = std::string_view(data + at, size - at).find('\t') + at;
    std::size_t end = std::string_view(data + tab, size - tab).find('\n') + tab + 1;
    rows[std::stoull(std::string(data + at, tab - at))] = std::string(data + tab + 1, end - tab - 1);
    at = end;
  }
}
}  // namespace
#endif

bool built_with_mpi() {
#ifdef HWSIM_HAVE_MPI
  return true;
#else
  return false;
#endif
}

MpiWorld start_mpi_if_launched() {
  MpiWorld world;
  if (!launched_by_mpi()) return world;
#ifndef HWSIM_HAVE_MPI
  // Every rank would run every point and write the same file: refuse instead.
  usage_error("sweep under mpirun: this hwsim was built without MPI (install libopenmpi-dev and rebuild)");
#else
  MPI_Init(nullptr, nullptr);
  started = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world.ranks);
#endif
  return world;
}

void stop_mpi() {
#ifdef HWSIM_HAVE_MPI
  if (started) MPI_Finalize();
  started = false;
#endif
}

std::map<std::size_t, std::string> gather_sweep_rows(const std::map<std::size_t, std::string>& mine,
                                                     std::size_t failed_here, std::size_t& failed_elsewhere) {
  std::map<std::size_t, std::string> all;
  failed_elsewhere = 0;
#ifdef HWSIM_HAVE_MPI
  if (started) {
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    std::string packed = pack(mine);
    long long size = static_cast<long long>(packed.size()), failed = static_cast<long long>(failed_here), total_failed = 0;
    const auto n = static_cast<std::size_t>(ranks);
    std::vector<long long> sizes(n, 0);
    MPI_Gather(&size, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    MPI_Reduce(&failed, &total_failed, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    std::vector<int> counts(n, 0), offsets(n, 0);
    int total = 0;
    for (std::size_t r = 0; r < n; ++r) {
      counts[r] = static_cast<int>(sizes[r]);
      offsets[r] = total;
      total += counts[r];
    }
    std::vector<char> buffer(rank == 0 ? std::size_t(total) + 1 : 1);
    MPI_Gatherv(packed.data(), int(size), MPI_CHAR, buffer.data(), counts.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      unpack(buffer.data(), std::size_t(total), all);
      failed_elsewhere = std::size_t(total_failed) - failed_here;
    }
    return all;
  }
#endif
  (void)failed_here;
  return mine;
}

}  // namespace hwsim
