#pragma once
// Reading an input file (chip, system and sweep files, kernel programs, measurement records,
// traces): the one place that decides what may be read.
//  - The path must name a regular file (after following symbolic links). A folder, a FIFO, a
//    socket or a device is refused: reading a FIFO blocks until a writer comes, /dev/zero never
//    ends, and a folder reads as nothing (a silent empty result).
//  - A file larger than `limit` bytes is refused with its size and the limit, before anything is
//    read, so an input can never exhaust memory.
// The file is opened without blocking and checked on the open descriptor, so a path that turns
// into a FIFO between the check and the read is refused too. Errors are one line, UserError(io),
// naming the path and `what` the file was meant to be ("kernel file").
#include <cstdint>
#include <string>

namespace hwsim {

// The largest input file any command reads: far above every real chip file (a few KiB), kernel
// (a few KiB) or measurement file (a few MiB), far below the memory of a small machine.
inline constexpr std::uint64_t kMaxInputBytes = 64ull << 20;

std::string read_input_file(const std::string& path, const std::string& what, std::uint64_t limit = kMaxInputBytes);

// The same check without reading: throws as read_input_file would (for readers that stream).
void check_input_file(const std::string& path, const std::string& what, std::uint64_t limit = kMaxInputBytes);

// `text` made fit for an error line: at most `width` characters (the cut marked with "..."),
// control characters (a line break) shown as '?'. User text echoed in an error (an unknown key, a
// value, a spec) never makes the line unbounded or splits it.
std::string shorten(const std::string& text, std::size_t width = 80);

}  // namespace hwsim
