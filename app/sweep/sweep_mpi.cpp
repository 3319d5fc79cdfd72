#include "app/sweep/sweep_mpi.h"

#include <climits>
#include <cstdlib>
#include <dlfcn.h>
#include <string_view>
#include <unistd.h>

#include "app/sweep/mpi_plugin_api.h"
#include "sim/error.h"

namespace hwsim {

namespace {
// A launcher's environment: Open MPI's, MPICH/Hydra's or Slurm's PMI.
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(v)) return true;
  return false;
}

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}

const MpiPluginApi* plugin = nullptr;  // set while MPI is started
int my_rank = 0;

// The plugin beside the running executable (the build puts libhwsim_mpi.so next to hwsim).
std::string plugin_path() {
  char exe[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  std::string dir = n > 0 ? std::string(exe, std::size_t(n)) : std::string();
  auto slash = dir.rfind('/');
  dir = slash == std::string::npos ? std::string(".") : dir.substr(0, slash);
  return dir + "/" + kHwsimMpiPluginFile;
}

const MpiPluginApi* load_plugin() {
  const std::string path = plugin_path();
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);  // global: MPI's own plugins need its symbols
  if (handle == nullptr)
    usage_error("sweep under mpirun: cannot load " + path + " (" + ::dlerror() +
                "); it is built beside hwsim when CMake finds MPI (Debian: libopenmpi-dev)");
  auto api = reinterpret_cast<const MpiPluginApi* (*)()>(::dlsym(handle, kHwsimMpiPluginSymbol));
  if (api == nullptr) usage_error("sweep under mpirun: " + path + " has no " + kHwsimMpiPluginSymbol);
  return api();
}

// "index\tline" records, one after another (a line ends in '\n' and holds no tab at its start).
std::string pack(const std::map<std::size_t, std::string>& rows) {
  std::string out;
  for (const auto& [index, line] : rows) out += std::to_string(index) + '\t' + line;
  return out;
}

void unpack(const std::string& data, std::map<std::size_t, std::string>& rows) {
  std::size_t at = 0;
  while (at < data.size()) {
    std::size_t tab = data.find('\t', at);
    std::size_t end = data.find('\n', tab) + 1;
    rows[std::stoull(data.substr(at, tab - at))] = data.substr(tab + 1, end - tab - 1);
    at = end;
  }
}
}  // namespace

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
  // Every rank would run every point and write the same file: refuse instead.
  if (!built_with_mpi())
    usage_error("sweep under mpirun: this hwsim was built without MPI (install libopenmpi-dev and rebuild)");
  const MpiPluginApi* api = load_plugin();
  api->start(&world.rank, &world.ranks);
  plugin = api;
  my_rank = world.rank;
  return world;
}

void stop_mpi() {
  if (plugin != nullptr) plugin->stop();
  plugin = nullptr;
}

std::map<std::size_t, std::string> gather_sweep_rows(const std::map<std::size_t, std::string>& mine,
                                                     std::size_t failed_here, std::size_t& failed_elsewhere) {
  failed_elsewhere = 0;
  if (plugin == nullptr) return mine;
  std::string all;
  long long total_failed = 0;
  plugin->gather(pack(mine), static_cast<long long>(failed_here), &all, &total_failed);
  std::map<std::size_t, std::string> rows;
  if (my_rank == 0) {
    unpack(all, rows);
    failed_elsewhere = std::size_t(total_failed) - failed_here;
  }
  return rows;
}

MpiWorld launcher_world() {
  if (!launched_by_mpi()) return {};
  MpiWorld w;
  w.rank = env_int("OMPI_COMM_WORLD_RANK", env_int("PMI_RANK", env_int("PMIX_RANK", 0)));
  w.ranks = env_int("OMPI_COMM_WORLD_SIZE", env_int("PMI_SIZE", 1));
  return w;
}

}  // namespace hwsim
