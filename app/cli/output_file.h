#pragma once
// Writing output files (--json, --trace, --csv, --html, --svg, --dump BUF=FILE):
//  - "-" writes to standard output;
//  - a symbolic link to a regular file (or to a new file in an existing folder) is written as that
//    file, whole or not at all, the link kept;
//  - an existing path that is not a plain regular file (a pipe, a FIFO, a device, a symbolic link
//    such as /dev/stdout) is opened and written through: renaming over it would replace the pipe
//    or the link. A failed write through it is an error (exit 5), never a silent truncation. Under /dev/ and /proc/ it is opened for appending (so `--json /dev/stdout >
//    FILE` does not truncate what the shell's redirection already holds), elsewhere truncated;
//  - anything else (a new path, a regular file) is written whole or not at all: content goes to a
//    temporary beside `path`, renamed into place only when complete, so a failure leaves no
//    partial file.
// A failure is a UserError(io) naming the path.
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace hwsim {

// Writes one output's content to the stream it is given (a document too large to hold in memory
// as one string is streamed, never built whole).
using OutputWriter = std::function<void(std::ostream&)>;

void write_output(const std::string& path, const std::string& content);
void write_output_with(const std::string& path, const OutputWriter& write);

// True when `path` is "-" (standard output): a command then keeps its text report off stdout.
bool is_stdout_path(const std::string& path);

// The older name; the same behaviour as write_output.
inline void write_file_atomically(const std::string& path, const std::string& content) { write_output(path, content); }

// Every output file of one run, written all or nothing:
//  - add() names each output (the option, for errors) and how to write its content; an empty
//    path is no output. check() refuses, before anything runs, two outputs naming one
//    destination (the same path, or one file by two names) and a destination whose folder does
//    not exist or is a file;
//  - write() streams every content to a temporary (beside a regular file's path; in the system's
//    temporary folder for a pipe, a device or standard output) and only when all are complete
//    renames the regular files into place, then copies the others through, standard output last
//    (they cannot be taken back). Any failure removes every temporary and puts back every file
//    the run replaced (kept aside until all outputs are written); a file the run created goes.
//    A TERM, INT or HUP while writing removes the temporaries; what a killed run left beside a
//    path is removed by the next run writing that path.
class OutputSet {
 public:
  void add(std::string option, std::string path, OutputWriter write);
  void add(std::string option, std::string path, std::function<std::string()> content);
  void check() const;
  void write() const;
  bool takes_stdout() const;  // some output is "-": the text report stays off stdout

 private:
  struct Output {
    std::string option, path;
    std::string target;  // what is written: `path`, or the regular file a symbolic link names
    OutputWriter write;
  };
  std::vector<Output> outputs_;
};

}  // namespace hwsim
