#include "app/cli/output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/error.h"
#include "sim/input_file.h"

namespace hwsim {

namespace fs = std::filesystem;

namespace {
// An existing path that is not a plain regular file (lstat: a symbolic link counts as special).
bool is_special_file(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

void write_through(const std::string& path, const std::string& content) {
  bool system_path = path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
  std::ofstream out(path, std::ios::binary | (system_path ? std::ios::app : std::ios::out | std::ios::trunc));
  if (!out) io_error(fmt::format("{}: cannot write output file", shorten(path)));
  out << content;
  if (!out.flush()) io_error(fmt::format("{}: write failed", shorten(path)));
}

void write_stdout(const std::string& content) {
  std::cout << content;
  if (!std::cout.flush()) io_error("standard output: write failed");
}

// Writes `content` to a new temporary beside `path`; returns its name.
std::string write_temporary(const std::string& path, const std::string& content) {
  std::string temporary = fmt::format("{}.tmp{}", path, ::getpid());
  std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
  if (!out) io_error(fmt::format("{}: cannot write output file: {}", shorten(path), std::strerror(errno)));
  out << content;
  if (!out.flush()) {
    out.close();
    std::remove(temporary.c_str());
    io_error(fmt::format("{}: write failed", shorten(path)));
  }
  return temporary;
}

void rename_into_place(const std::string& temporary, const std::string& path) {
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (ec) io_error(fmt::format("{}: cannot write output file: {}", shorten(path), ec.message()));
}

// What names one destination: stdout, the file an existing path is (device and inode), or the
// absolute path a new file will have.
std::string destination_id(const std::string& path) {
  if (is_stdout_path(path)) return "-";
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return fmt::format("inode {}:{}", st.st_dev, st.st_ino);
  std::error_code ec;
  return fs::weakly_canonical(fs::absolute(path, ec), ec).string();
}
}  // namespace

bool is_stdout_path(const std::string& path) { return path == "-"; }

void write_output(const std::string& path, const std::string& content) {
  OutputSet one;
  one.add("output", path, [&] { return content; });
  one.write();
}

void OutputSet::add(std::string option, std::string path, std::function<std::string()> content) {
  if (path.empty()) return;
  outputs_.push_back({std::move(option), std::move(path), std::move(content)});
}

bool OutputSet::takes_stdout() const {
  for (const auto& o : outputs_)
    if (is_stdout_path(o.path)) return true;
  return false;
}

void OutputSet::check() const {
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < outputs_.size(); ++i) {
    const Output& o = outputs_[i];
    ids.push_back(destination_id(o.path));
    for (std::size_t j = 0; j < i; ++j)
      if (ids[j] == ids[i])
        usage_error(fmt::format("{} {} and {} {}: two outputs name one destination (give each its own file)",
                                outputs_[j].option, shorten(outputs_[j].path), o.option, shorten(o.path)));
    if (is_stdout_path(o.path)) continue;
    std::error_code ec;
    if (fs::is_directory(o.path, ec))
      io_error(fmt::format("{} {}: cannot write output file: it is a folder", o.option, shorten(o.path)));
    if (is_special_file(o.path)) continue;
    fs::path folder = fs::absolute(o.path, ec).parent_path();
    if (!fs::is_directory(folder, ec))
      io_error(fmt::format("{} {}: cannot write output file: no folder {}", o.option, shorten(o.path),
                           shorten(folder.string())));
  }
}

void OutputSet::write() const {
  check();
  // Every content first: making one may fail (a report too large), and nothing is written yet.
  std::vector<std::string> texts;
  for (const auto& o : outputs_) texts.push_back(o.content());
  std::vector<std::pair<std::string, std::string>> staged;  // temporary ("" once renamed), final path
  try {
    for (std::size_t i = 0; i < outputs_.size(); ++i)
      if (!is_stdout_path(outputs_[i].path) && !is_special_file(outputs_[i].path))
        staged.emplace_back(write_temporary(outputs_[i].path, texts[i]), outputs_[i].path);
    for (auto& [temporary, path] : staged) {
      rename_into_place(temporary, path);
      temporary.clear();
    }
  } catch (...) {
    for (const auto& [temporary, path] : staged) std::remove((temporary.empty() ? path : temporary).c_str());
    throw;
  }
  for (std::size_t i = 0; i < outputs_.size(); ++i)
    if (!is_stdout_path(outputs_[i].path) && is_special_file(outputs_[i].path)) write_through(outputs_[i].path, texts[i]);
  for (std::size_t i = 0; i < outputs_.size(); ++i)
    if (is_stdout_path(outputs_[i].path)) write_stdout(texts[i]);
}

}  // namespace hwsim
