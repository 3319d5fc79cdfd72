#pragma once
// User-facing errors. Every mistake a user can make (bad TOML, unknown key, bad workload spec,
// impossible value, a workload that does not fit) is thrown as a UserError carrying one line of
// text and the documented process exit code; main() prints the line and exits. Anything else that
// escapes is an internal fault (a bug) and exits with ExitCode::internal.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace hwsim {

// Exit codes, documented in README.md ("Exit codes").
enum class ExitCode : int {
  ok = 0,
  internal = 1,     // a bug: please report
  usage = 2,        // bad command line
  config = 3,       // bad chip configuration (TOML, --set)
  workload = 4,     // bad workload spec, or it does not fit the chip
  io = 5,           // a file could not be read or written
  validation = 6,   // `hwsim validate --max-mape` threshold exceeded
};

// The longest error line printed: past it, the middle of the line is cut (" ... "), keeping its
// start (where and what) and its end (what would be right).
inline constexpr std::size_t kMaxErrorLine = 2048;

// The line as printed: a line break or other control character that user text quoted into it
// would carry (a TOML multi-line string, a name read from a file) is shown as '?', and a line
// longer than kMaxErrorLine loses its middle, so an error is one bounded line by construction.
inline std::string one_line(std::string line) {
  for (char& c : line)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  if (line.size() <= kMaxErrorLine) return line;
  auto continuation = [&](std::size_t i) { return (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80; };
  std::size_t head = kMaxErrorLine / 2, tail = line.size() - kMaxErrorLine / 2 + 8;
  while (head > 0 && continuation(head)) --head;            // not inside a UTF-8 sequence
  while (tail < line.size() && continuation(tail)) ++tail;
  return line.substr(0, head) + " ... " + line.substr(tail);
}

class UserError : public std::runtime_error {
 public:
  UserError(ExitCode code, const std::string& line) : std::runtime_error(one_line(line)), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

// Shorthands, so a throw site reads as what went wrong.
[[noreturn]] inline void config_error(const std::string& line) { throw UserError(ExitCode::config, line); }
[[noreturn]] inline void workload_error(const std::string& line) { throw UserError(ExitCode::workload, line); }
[[noreturn]] inline void usage_error(const std::string& line) { throw UserError(ExitCode::usage, line); }
[[noreturn]] inline void io_error(const std::string& line) { throw UserError(ExitCode::io, line); }

}  // namespace hwsim
