#include "app/cli/output_file.h"

#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <unistd.h>

#include "sim/error.h"

namespace hwsim {

void write_file_atomically(const std::string& path, const std::string& content) {
  std::string temporary = fmt::format("{}.tmp{}", path, ::getpid());
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!out) io_error(fmt::format("{}: cannot write output file", path));
    out << content;
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

}  // namespace hwsim
