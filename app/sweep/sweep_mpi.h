#pragma once
// Many machines: `mpirun -np N hwsim sweep ...` gives every rank the points whose index % N is its
// rank; rank 0 gathers the rows and writes the one output. Built with MPI when CMake finds it
// (HWSIM_HAVE_MPI), as the plugin libhwsim_mpi.so beside hwsim, loaded only under a launcher
// (app/sweep/mpi_plugin_api.h); without it a sweep is always one rank and these do nothing.
#include <cstddef>
#include <map>
#include <string>

namespace hwsim {

// MPI_Init when the process was started by an MPI launcher (its environment says so) and the
// build has MPI; returns {rank, ranks} ({0, 1} otherwise). Call once, before any fork. Under a
// launcher without MPI in the build: UserError(usage).
struct MpiWorld {
  int rank = 0, ranks = 1;
};
MpiWorld start_mpi_if_launched();
void stop_mpi();  // MPI_Finalize when start_mpi_if_launched() started it
// Is this build able to run under MPI?
bool built_with_mpi();
// The rank and size a launcher's environment gives this process, without starting MPI: {0, 1}
// when no launcher started it. A plain run under mpirun runs on rank 0 only.
MpiWorld launcher_world();

// Every rank's rows to rank 0 (the others get an empty map); failed counts summed likewise.
std::map<std::size_t, std::string> gather_sweep_rows(const std::map<std::size_t, std::string>& mine,
                                                     std::size_t failed_here, std::size_t& failed_elsewhere);

}  // namespace hwsim
