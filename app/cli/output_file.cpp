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

using Writer = std::function<void(std::ostream&)>;

// Opens a destination that is written through (a pipe, a device, a link); /dev/ and /proc/ append.
std::ofstream open_through(const std::string& path) {
  bool system_path = path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
  std::ofstream out(path, std::ios::binary | (system_path ? std::ios::app : std::ios::out | std::ios::trunc));
  if (!out) io_error(fmt::format("{}: cannot write output file", shorten(path)));
  return out;
}

// Copies a staged temporary to `out` (a written-through destination or standard output).
void copy_staged(const std::string& temporary, std::ostream& out, const std::string& name) {
  std::ifstream in(temporary, std::ios::binary);
  if (!in) io_error(fmt::format("{}: cannot read back the staged output", shorten(name)));
  if (in.peek() != std::char_traits<char>::eof()) out << in.rdbuf();  // an empty one inserts nothing
  if (!out.flush()) io_error(fmt::format("{}: write failed", shorten(name)));
}

// Streams `write` into a new temporary file `temporary`; removes it and rethrows on any failure.
void write_temporary(const std::string& temporary, const std::string& path, const OutputWriter& write) {
  std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
  if (!out) io_error(fmt::format("{}: cannot write output file: {}", shorten(path), std::strerror(errno)));
  try {
    write(out);
  } catch (...) {
    out.close();
    std::remove(temporary.c_str());
    throw;
  }
  if (!out.flush()) {
    out.close();
    std::remove(temporary.c_str());
    io_error(fmt::format("{}: write failed", shorten(path)));
  }
}

// Where an output is staged: beside a regular file (renamed into place later), else in the
// system's temporary folder (copied through later).
std::string staging_path(const std::string& path, std::size_t index) {
  if (!is_stdout_path(path) && !is_special_file(path)) return fmt::format("{}.tmp{}", path, ::getpid());
  std::error_code ec;
  fs::path folder = fs::temp_directory_path(ec);
  if (ec) folder = "/tmp";
  return (folder / fmt::format("hwsim-output-{}-{}", ::getpid(), index)).string();
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
  write_output_with(path, [&](std::ostream& out) { out << content; });
}

void write_output_with(const std::string& path, const OutputWriter& write) {
  OutputSet one;
  one.add("output", path, write);
  one.write();
}

void OutputSet::add(std::string option, std::string path, OutputWriter write) {
  if (path.empty()) return;
  outputs_.push_back({std::move(option), std::move(path), std::move(write)});
}

void OutputSet::add(std::string option, std::string path, std::function<std::string()> content) {
  add(std::move(option), std::move(path), OutputWriter([content = std::move(content)](std::ostream& out) { out << content(); }));
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
  std::vector<std::string> staged;  // one temporary per output, "" once renamed into place
  std::vector<std::string> placed;  // regular files renamed into place, removed again on a failure
  auto remove_staged = [&] {
    for (const auto& t : staged)
      if (!t.empty()) std::remove(t.c_str());
  };
  try {
    for (std::size_t i = 0; i < outputs_.size(); ++i) {
      staged.push_back(staging_path(outputs_[i].path, i));
      write_temporary(staged.back(), outputs_[i].path, outputs_[i].write);
    }
    for (std::size_t i = 0; i < outputs_.size(); ++i)
      if (!is_stdout_path(outputs_[i].path) && !is_special_file(outputs_[i].path)) {
        rename_into_place(staged[i], outputs_[i].path);
        staged[i].clear();
        placed.push_back(outputs_[i].path);
      }
    for (std::size_t i = 0; i < outputs_.size(); ++i)
      if (!staged[i].empty() && !is_stdout_path(outputs_[i].path)) {
        std::ofstream out = open_through(outputs_[i].path);
        copy_staged(staged[i], out, outputs_[i].path);
      }
    for (std::size_t i = 0; i < outputs_.size(); ++i)
      if (is_stdout_path(outputs_[i].path)) copy_staged(staged[i], std::cout, "standard output");
  } catch (...) {
    remove_staged();
    for (const auto& p : placed) std::remove(p.c_str());
    throw;
  }
  remove_staged();
}

}  // namespace hwsim
