#pragma once
// The MPI side of a sweep, as a plugin: libhwsim_mpi.so (app/sweep/mpi_plugin.cpp) is the only
// object linked with MPI, and hwsim loads it only when an MPI launcher started the process. A run
// that is not under mpirun then never maps Open MPI's eight libraries, whose loading and
// relocation cost every hwsim command ~4 ms of start-up (a third of `hwsim --version`).
// Both sides are built by one CMake project, so the table may pass C++ types.
#include <string>

namespace hwsim {

struct MpiPluginApi {
  // MPI_Init, then this rank and the number of ranks.
  void (*start)(int* rank, int* ranks);
  // MPI_Finalize.
  void (*stop)();
  // Every rank's `mine` gathered to rank 0, concatenated in rank order into *all (rank 0 only),
  // and every rank's `failed` summed into *failed_total (rank 0 only).
  void (*gather)(const std::string& mine, long long failed, std::string* all, long long* failed_total);
};

}  // namespace hwsim

// The plugin's one exported symbol: returns its table.
extern "C" const hwsim::MpiPluginApi* hwsim_mpi_plugin_api();
inline constexpr const char* kHwsimMpiPluginSymbol = "hwsim_mpi_plugin_api";
inline constexpr const char* kHwsimMpiPluginFile = "libhwsim_mpi.so";
