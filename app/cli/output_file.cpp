#include "app/cli/output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <csignal>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "sim/error.h"
#include "sim/input_file.h"
#include "sim/output_budget.h"

namespace hwsim {

namespace fs = std::filesystem;

namespace {

// The temporaries and kept files of the outputs being written, removed by a TERM, INT or HUP
// handler (unlink is async-signal-safe) before the signal ends the process as it would have. A
// KILL cannot be caught: the next run writing the same path removes what a dead run left
// (remove_stale_temporaries).
class StagedFiles {
 public:
  static void add(const std::string& path) {
    for (std::size_t i = 0; i < kSlots; ++i)
      if (!used_[i] && path.size() < kPathBytes) {
        std::memcpy(paths_[i], path.c_str(), path.size() + 1);
        used_[i] = 1;
        return;
      }
  }
  static void remove(const std::string& path) {
    for (std::size_t i = 0; i < kSlots; ++i)
      if (used_[i] && path == paths_[i]) used_[i] = 0;
  }
  static void install_handlers() {
    static bool installed = false;
    if (installed) return;
    installed = true;
    for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;  // an ignored one stays ignored
      struct sigaction act {};
      act.sa_handler = &StagedFiles::on_signal;
      ::sigemptyset(&act.sa_mask);
      ::sigaction(sig, &act, nullptr);
    }
  }

 private:
  static constexpr std::size_t kSlots = 64, kPathBytes = 4096;
  static void on_signal(int sig) {
    for (std::size_t i = 0; i < kSlots; ++i)
      if (used_[i]) ::unlink(paths_[i]);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
  }
  static inline char paths_[kSlots][kPathBytes] = {};
  static inline volatile std::sig_atomic_t used_[kSlots] = {};
};

// Removes `path`.tmpPID and `path`.oldPID files of processes that no longer exist (a run killed
// while writing `path`); a live process's, or one whose PID was reused, stays.
void remove_stale_temporaries(const std::string& path) {
  std::error_code ec;
  fs::path target = fs::absolute(path, ec);
  const std::string name = target.filename().string();
  for (const auto& entry : fs::directory_iterator(target.parent_path(), ec)) {
    const std::string other = entry.path().filename().string();
    if (other.size() <= name.size() + 4 || other.compare(0, name.size(), name) != 0) continue;
    const std::string suffix = other.substr(name.size());
    if (suffix.rfind(".tmp", 0) != 0 && suffix.rfind(".old", 0) != 0) continue;
    const std::string digits = suffix.substr(4);
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto pid = pid_t(std::stol(digits));
    if (pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
    // A kept previous file is the only copy when the run died between moving it aside and
    // placing the new one: it goes back.
    if (suffix[1] == 'o' && !fs::exists(target, ec)) fs::rename(entry.path(), target, ec);
    else fs::remove(entry.path(), ec);
  }
}

bool system_path(const std::string& path) { return path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0; }

// A symbolic link (outside /dev and /proc) to a regular file, or to a new file in an existing
// folder, is written as that file: whole or not at all, the link kept. Anything else is itself.
std::string resolved_destination(const std::string& path) {
  struct stat st {};
  if (path == "-" || system_path(path) || ::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  std::error_code ec;
  fs::path target = fs::absolute(path, ec);
  for (int hop = 0; hop < 40 && fs::is_symlink(fs::symlink_status(target, ec)); ++hop) {  // a dangling link too
    fs::path next = fs::read_symlink(target, ec);
    if (ec) return path;
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  if (fs::is_symlink(fs::symlink_status(target, ec))) return path;  // a loop: written through, as before
  target = fs::weakly_canonical(target, ec);
  if (ec || system_path(target.string())) return path;
  struct stat t {};
  bool regular = ::stat(target.c_str(), &t) == 0 ? S_ISREG(t.st_mode) : fs::is_directory(target.parent_path(), ec);
  return regular ? target.string() : path;
}

// An existing path that is not a plain regular file (lstat: a symbolic link counts as special).
bool is_special_file(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

using Writer = std::function<void(std::ostream&)>;

// Opens a destination that is written through (a pipe, a device, a link); /dev/ and /proc/ append.
std::ofstream open_through(const std::string& path) {
  std::ofstream out(path, std::ios::binary | (system_path(path) ? std::ios::app : std::ios::out | std::ios::trunc));
  if (!out) io_error(fmt::format("{}: cannot write output file", shorten(path)));
  return out;
}

// Copies a staged temporary to `out` (a written-through destination or standard output), chunk
// by chunk: a stream insertion of the whole buffer reports nothing when only part of it was
// written (a full disk), and the file was left truncated with exit 0.
void copy_staged(const std::string& temporary, std::ostream& out, const std::string& name) {
  std::ifstream in(temporary, std::ios::binary);
  if (!in) io_error(fmt::format("{}: cannot read back the staged output", shorten(name)));
  errno = 0;
  std::vector<char> chunk(std::size_t(1) << 16);
  while (in) {
    in.read(chunk.data(), std::streamsize(chunk.size()));
    const std::streamsize n = in.gcount();
    if (n > 0 && !out.write(chunk.data(), n))
      io_error(fmt::format("{}: write failed: {}", shorten(name), errno ? std::strerror(errno) : "short write"));
  }
  if (in.bad()) io_error(fmt::format("{}: cannot read back the staged output", shorten(name)));
  if (!out.flush()) io_error(fmt::format("{}: write failed: {}", shorten(name), errno ? std::strerror(errno) : "flush"));
}

// A stream buffer passing bytes on to `next` until --max-output's limit (sim/output_budget.h),
// then refusing them: the writer's stream goes bad and stops, and `passed` tells why.
class BoundedBuffer : public std::streambuf {
 public:
  explicit BoundedBuffer(std::streambuf* next) : next_(next), left_(output_limit()) {}
  bool passed() const { return passed_; }
  double written() const { return written_; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    char ch = traits_type::to_char_type(c);
    return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    written_ += double(n);
    if (double(n) > left_) return passed_ = true, 0;
    left_ -= double(n);
    return next_->sputn(s, n);
  }
  int sync() override { return next_->pubsync(); }

 private:
  std::streambuf* next_;
  double left_, written_ = 0;
  bool passed_ = false;
};

// Streams `write` into a new temporary file `temporary`; removes it and rethrows on any failure.
void write_temporary(const std::string& temporary, const std::string& path, const OutputWriter& write) {
  std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
  if (!file) io_error(fmt::format("{}: cannot write output file: {}", shorten(path), std::strerror(errno)));
  BoundedBuffer bounded(file.rdbuf());
  std::ostream out(&bounded);
  try {
    write(out);
    if (bounded.passed())
      require_output(bounded.written(), fmt::format("{}: the output", shorten(path)),
                     "--detail summary, fewer steps or records");
  } catch (...) {
    file.close();
    std::remove(temporary.c_str());
    throw;
  }
  if (!out.flush()) {
    file.close();
    std::remove(temporary.c_str());
    io_error(fmt::format("{}: write failed: {}", shorten(path), errno ? std::strerror(errno) : "flush"));
  }
  file.close();  // the last bytes reach the file here: a full disk shows now
  if (file.fail()) {
    std::remove(temporary.c_str());
    io_error(fmt::format("{}: write failed: {}", shorten(path), errno ? std::strerror(errno) : "close"));
  }
}

// Where an output is staged: beside a regular file (renamed into place later), else in the
// system's temporary folder (copied through later).
std::string staging_path(const std::string& path, std::size_t index) {
  if (!is_stdout_path(path) && !is_special_file(path)) {
    remove_stale_temporaries(path);
    return fmt::format("{}.tmp{}", path, ::getpid());
  }
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

// A regular file about to be replaced keeps its content under a second name (a hard link, else a
// rename) until every output of the run is written, so a failing later output puts it back
// instead of leaving the user without it. "" when there is nothing to keep.
std::string keep_previous(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return "";
  std::string kept = fmt::format("{}.old{}", path, ::getpid());
  std::remove(kept.c_str());
  if (::link(path.c_str(), kept.c_str()) != 0 && std::rename(path.c_str(), kept.c_str()) != 0)
    io_error(fmt::format("{}: cannot keep the previous file while writing: {}", shorten(path), std::strerror(errno)));
  StagedFiles::add(kept);
  return kept;
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
  std::string target = resolved_destination(path);
  outputs_.push_back({std::move(option), std::move(path), std::move(target), std::move(write)});
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
    if (is_special_file(o.target)) continue;
    fs::path folder = fs::absolute(o.target, ec).parent_path();
    if (!fs::is_directory(folder, ec))
      io_error(fmt::format("{} {}: cannot write output file: no folder {}", o.option, shorten(o.path),
                           shorten(folder.string())));
  }
}

void OutputSet::write() const {
  check();
  StagedFiles::install_handlers();
  std::vector<std::string> staged;  // one temporary per output, "" once renamed into place
  struct Placed {
    std::string path, previous;  // previous: the replaced file's content kept aside ("" if none)
  };
  std::vector<Placed> placed;  // regular files renamed into place: undone on a failure
  auto remove_staged = [&] {
    for (const auto& t : staged)
      if (!t.empty()) std::remove(t.c_str()), StagedFiles::remove(t);
  };
  try {
    for (std::size_t i = 0; i < outputs_.size(); ++i) {
      staged.push_back(staging_path(outputs_[i].target, i));
      StagedFiles::add(staged.back());
      write_temporary(staged.back(), outputs_[i].target, outputs_[i].write);
    }
    for (std::size_t i = 0; i < outputs_.size(); ++i)
      if (!is_stdout_path(outputs_[i].target) && !is_special_file(outputs_[i].target)) {
        placed.push_back({outputs_[i].target, keep_previous(outputs_[i].target)});
        rename_into_place(staged[i], outputs_[i].target);
        StagedFiles::remove(staged[i]);
        staged[i].clear();
      }
    for (std::size_t i = 0; i < outputs_.size(); ++i)
      if (!staged[i].empty() && !is_stdout_path(outputs_[i].target)) {
        std::ofstream out = open_through(outputs_[i].target);
        copy_staged(staged[i], out, outputs_[i].target);
        out.close();
        if (out.fail()) io_error(fmt::format("{}: write failed: {}", shorten(outputs_[i].target), std::strerror(errno)));
      }
    for (std::size_t i = 0; i < outputs_.size(); ++i)
      if (is_stdout_path(outputs_[i].target)) copy_staged(staged[i], std::cout, "standard output");
  } catch (...) {
    remove_staged();
    for (auto it = placed.rbegin(); it != placed.rend(); ++it) {  // each file as it was before the run
      if (it->previous.empty()) std::remove(it->path.c_str());
      else std::rename(it->previous.c_str(), it->path.c_str()), StagedFiles::remove(it->previous);
    }
    throw;
  }
  remove_staged();
  for (const auto& p : placed)
    if (!p.previous.empty()) std::remove(p.previous.c_str()), StagedFiles::remove(p.previous);
}

}  // namespace hwsim
