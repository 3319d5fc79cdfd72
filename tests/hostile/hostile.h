#pragma once
// The hostile-input suite (issue 13): hwsim run as a hostile user would, one case per TEST_CASE.
// A case writes its input files into a fresh folder, runs the built hwsim under a time limit (and,
// outside sanitizer builds, an address-space limit), and checks the contract of bad input: the
// documented exit code, exactly one line on stderr starting "hwsim: " (and naming what is
// wrong), and no output file left behind. A case that must now succeed checks exit 0 instead.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tests/fixtures/test_support.h"

namespace hwsim::hostile {

namespace fs = std::filesystem;

// Far above any case's run (each takes well under a second) and far below "forever".
inline constexpr int kTimeLimitSeconds = 60;
// 4 GiB of address space: a run that tries to take more dies, and the case fails.
inline constexpr long kAddressSpaceKiB = 4L << 20;

// A fresh folder for one case's inputs and outputs ({dir} in the arguments).
inline fs::path case_dir() {
  static int cases = 0;
  fs::path d = test::scratch_dir() / ("case" + std::to_string(++cases));
  fs::create_directories(d);
  return d;
}

inline std::string write_input(const fs::path& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir / name, std::ios::binary) << text;
  return (dir / name).string();
}

inline std::string make_fifo(const fs::path& dir, const std::string& name) {
  std::string path = (dir / name).string();
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  return path;
}

struct Outcome {
  int exit_code = -1;
  std::string out, err;
  std::set<std::string> new_files;  // names in the case folder the run created
};

// AddressSanitizer's own note when SystemC (not instrumented) switches coroutine stacks as an
// exception leaves a simulation thread: three lines of the sanitizer's, not hwsim's; removed
// before the one-line check. A real report would still fail the case (its exit code and lines).
inline std::string without_sanitizer_notes(const std::string& err) {
#ifdef HWSIM_SANITIZED
  std::string out;
  for (const auto& line : test::lines_of(err)) {
    bool note = test::contains(line, "WARNING: ASan is ignoring requested __asan_handle_no_return") ||
                line == "False positive error reports may follow" ||
                line == "For details see https://github.com/google/sanitizers/issues/189";
    if (!note) out += line + "\n";
  }
  return out;
#else
  return err;
#endif
}

// Runs `hwsim ARGS` from the repository root; "{dir}" in ARGS is the case folder.
inline Outcome run_case(const fs::path& dir, std::string args) {
  for (std::size_t at; (at = args.find("{dir}")) != std::string::npos;) args.replace(at, 5, dir.string());
  std::set<std::string> before;
  for (const auto& e : fs::directory_iterator(dir)) before.insert(e.path().filename().string());
  fs::path out = dir.parent_path() / (dir.filename().string() + ".out");
  fs::path err = dir.parent_path() / (dir.filename().string() + ".err");
#ifdef HWSIM_SANITIZED
  std::string limit = "";  // sanitizers reserve terabytes of address space
#else
  std::string limit = "ulimit -v " + std::to_string(kAddressSpaceKiB) + "; ";
#endif
  std::string command = "cd '" + std::string(HWSIM_SOURCE_DIR) + "' && " + limit + "timeout -s KILL " +
                        std::to_string(kTimeLimitSeconds) + " '" + std::string(HWSIM_BINARY) + "' " + args +
                        " >'" + out.string() + "' 2>'" + err.string() + "' </dev/null";
  int status = std::system(command.c_str());
  Outcome o;
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.out = test::read_text(out);
  o.err = without_sanitizer_notes(test::read_text(err));
  for (const auto& e : fs::directory_iterator(dir))
    if (!before.count(e.path().filename().string())) o.new_files.insert(e.path().filename().string());
  return o;
}

// Bad input: exit `code`, one stderr line "hwsim: ..." containing `says`, no file written.
inline void refused(const fs::path& dir, const std::string& args, int code, const std::string& says) {
  Outcome o = run_case(dir, args);
  INFO("hwsim " << args << "\nstderr: " << o.err.substr(0, 2000));
  CHECK(o.exit_code == code);
  CHECK(o.err.rfind("hwsim: ", 0) == 0);
  CHECK(test::lines_of(o.err).size() == 1);
  CHECK(o.err.size() < 1000);
  CHECK(test::contains(o.err, says));
  CHECK(o.new_files.empty());
}

inline void refused(const std::string& args, int code, const std::string& says) { refused(case_dir(), args, code, says); }

// Input that must now run: exit 0, nothing on stderr. Returns stdout.
inline std::string accepted(const fs::path& dir, const std::string& args) {
  Outcome o = run_case(dir, args);
  INFO("hwsim " << args << "\nstderr: " << o.err.substr(0, 2000));
  CHECK(o.exit_code == 0);
  CHECK(o.err.empty());
  return o.out;
}

}  // namespace hwsim::hostile
