// compile_cuda (kernel_source.h): clang's CUDA front end and NVPTX back end, device side only.
// The compiler is $HWSIM_CLANG, else the newest of clang++-16, clang++-15, clang++-14, clang++ on
// the PATH; its PTX targets sm_90 from clang 16 on, sm_86 before (clang 14 knows no sm_90; the
// kernels' PTX is the same for the warp model, which reads no .target).
#include <cerrno>
#include <fcntl.h>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "app/kernel/kernel_source.h"
#include "sim/error.h"
#include "sim/input_file.h"

extern char** environ;

namespace hwsim {
namespace {

const char* kShim =
#include "app/kernel/cuda_shim.inc"
    ;

bool on_path(const std::string& name, std::string& found) {
  if (name.find('/') != std::string::npos) {
    found = name;
    return access(name.c_str(), X_OK) == 0;
  }
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string d; std::getline(dirs, d, ':');) {
    std::string p = (d.empty() ? "." : d) + "/" + name;
    if (access(p.c_str(), X_OK) == 0) return found = p, true;
  }
  return false;
}

// Runs argv with stdout and stderr into `log`; returns the exit status (-1: could not start).
int run_process(const std::vector<std::string>& argv, const std::string& log) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Compiler {
  std::string path;
  int major = 0;
};

Compiler find_clang() {
  Compiler c;
  if (const char* env = std::getenv("HWSIM_CLANG"); env && *env) {
    if (!on_path(env, c.path)) usage_error(fmt::format("HWSIM_CLANG={}: no such program", env));
  } else {
    for (const char* name : {"clang++-16", "clang++-15", "clang++-14", "clang++"})
      if (on_path(name, c.path)) break;
    if (c.path.empty())
      usage_error("--kernel FILE.cu needs clang to compile CUDA to PTX: apt-get install clang (or give the PTX: --kernel FILE.ptx)");
  }
  // its major version: "clang++-16" by name, else `clang++ -dumpversion`
  auto dash = c.path.rfind('-');
  if (dash != std::string::npos && std::isdigit((unsigned char)c.path[dash + 1])) c.major = std::atoi(c.path.c_str() + dash + 1);
  return c;
}

int clang_major(const Compiler& c, const std::string& dir) {
  if (c.major > 0) return c.major;
  const std::string log = dir + "/version.txt";
  if (run_process({c.path, "-dumpversion"}, log) != 0) return 14;
  return std::atoi(read_all(log).c_str());
}

}  // namespace

std::string compile_cuda(const std::string& path) {
  (void)read_input_file(path, "kernel file");  // a missing or unreadable file: the usual one line
  Compiler cc = find_clang();
  const char* tmp_dir = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp_dir && *tmp_dir ? tmp_dir : "/tmp") + "/hwsim-cuda-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  char* dir_c = mkdtemp(buf.data());
  if (!dir_c) io_error(fmt::format("{}: cannot make a temporary directory to compile it ({})", path, std::strerror(errno)));
  const std::string dir = dir_c;
  struct Cleanup {
    std::string d;
    ~Cleanup() {
      std::error_code ec;
      std::filesystem::remove_all(d, ec);
    }
  } cleanup{dir};
  { std::ofstream(dir + "/hwsim_cuda.h") << kShim; }
  const int major = clang_major(cc, dir);
  const std::string arch = major >= 16 ? "sm_90" : "sm_86";
  const std::string ptx = dir + "/kernel.ptx", log = dir + "/clang.txt";
  std::vector<std::string> argv = {cc.path, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + arch, "-nocudainc",
                                   "-nocudalib", "-O3", "-S", "-std=c++17", "-Wno-unknown-cuda-version",
                                   "-Xclang", "-target-feature", "-Xclang", "+ptx72",
                                   "-include", dir + "/hwsim_cuda.h", path, "-o", ptx};
  const int rc = run_process(argv, log);
  const std::string messages = read_all(log);
  if (rc != 0) {
    std::cerr << messages;
    if (rc < 0) usage_error(fmt::format("{}: could not run {}", path, cc.path));
    workload_error(fmt::format("{}: {} could not compile it (its messages above)", path, cc.path));
  }
  return read_all(ptx);
}

}  // namespace hwsim
