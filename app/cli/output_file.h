#pragma once
// Writing an output file (--json, --trace, --csv, --html):
//  - "-" writes to standard output;
//  - an existing path that is not a plain regular file (a pipe, a FIFO, a device, a symbolic link
//    such as /dev/stdout) is opened and written through: renaming over it would replace the pipe
//    or the link. Under /dev/ and /proc/ it is opened for appending (so `--json /dev/stdout >
//    FILE` does not truncate what the shell's redirection already holds), elsewhere truncated;
//  - anything else (a new path, a regular file) is written whole or not at all: content goes to a
//    temporary beside `path`, renamed into place only when complete, so a failure leaves no
//    partial file.
// A failure is a UserError(io) naming the path.
#include <functional>
#include <ostream>
#include <string>

namespace hwsim {

void write_output(const std::string& path, const std::string& content);
// The same rules, the content written by `write` to the stream it is given (a document too large
// to hold in memory as one string). An exception from `write` leaves no file (or a partial one
// where the output is written through).
void write_output_with(const std::string& path, const std::function<void(std::ostream&)>& write);

// True when `path` is "-" (standard output): a command then keeps its text report off stdout.
bool is_stdout_path(const std::string& path);

// The older name; the same behaviour as write_output.
inline void write_file_atomically(const std::string& path, const std::string& content) { write_output(path, content); }

}  // namespace hwsim
