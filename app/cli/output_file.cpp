#include "app/cli/output_file.h"

#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/error.h"

namespace hwsim {

namespace {
// An existing path that is not a plain regular file (lstat: a symbolic link counts as special).
bool is_special_file(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

using Writer = std::function<void(std::ostream&)>;

void write_through(const std::string& path, const Writer& write) {
  bool system_path = path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
  std::ofstream out(path, std::ios::binary | (system_path ? std::ios::app : std::ios::out | std::ios::trunc));
  if (!out) io_error(fmt::format("{}: cannot write output file", path));
  write(out);
  if (!out.flush()) io_error(fmt::format("{}: write failed", path));
}

void write_atomically(const std::string& path, const Writer& write) {
  std::string temporary = fmt::format("{}.tmp{}", path, ::getpid());
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!out) io_error(fmt::format("{}: cannot write output file", path));
    try {
      write(out);
    } catch (...) {
      out.close();
      std::remove(temporary.c_str());
      throw;
    }
    if (!out.flush()) {
      std::remove(temporary.c_str());
      io_error(fmt::format("{}: write failed", path));
    }
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::remove(temporary.c_str());
    io_error(fmt::format("{}: cannot write output file: {}", path, ec.message()));
  }
}
}  // namespace

bool is_stdout_path(const std::string& path) { return path == "-"; }

void write_output(const std::string& path, const std::string& content) {
  write_output_with(path, [&](std::ostream& out) { out << content; });
}

void write_output_with(const std::string& path, const std::function<void(std::ostream&)>& write) {
  if (is_stdout_path(path)) {
    write(std::cout);
    if (!std::cout.flush()) io_error("standard output: write failed");
    return;
  }
  if (is_special_file(path)) return write_through(path, write);
  write_atomically(path, write);
}

}  // namespace hwsim
