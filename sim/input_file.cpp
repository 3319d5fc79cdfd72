#include "sim/input_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/error.h"

namespace hwsim {

namespace {
std::string file_type(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO (pipe)";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Opens `path` for reading, checked as the contract says; returns the descriptor and its size.
int open_checked(const std::string& path, const std::string& what, std::uint64_t limit, std::uint64_t& size) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) io_error(fmt::format("{}: cannot read {}: {}", shorten(path), what, std::strerror(errno)));
  struct stat st {};
  bool stat_ok = ::fstat(fd, &st) == 0;
  if (!stat_ok || !S_ISREG(st.st_mode)) {
    std::string type = stat_ok ? file_type(st.st_mode) : std::strerror(errno);
    ::close(fd);
    io_error(fmt::format("{}: cannot read {}: it is {}, not a regular file", shorten(path), what, type));
  }
  size = std::uint64_t(st.st_size);
  if (size > limit) {
    ::close(fd);
    io_error(fmt::format("{}: {} of {} bytes is larger than the {} bytes an input file may have", shorten(path), what,
                         size, limit));
  }
  return fd;
}
}  // namespace

void check_input_file(const std::string& path, const std::string& what, std::uint64_t limit) {
  std::uint64_t size = 0;
  ::close(open_checked(path, what, limit, size));
}

std::string read_input_file(const std::string& path, const std::string& what, std::uint64_t limit) {
  std::uint64_t size = 0;
  int fd = open_checked(path, what, limit, size);
  std::string text;
  text.resize(size);
  std::uint64_t got = 0;
  // A file that grows while it is read is read up to its size at the check.
  while (got < size) {
    ssize_t n = ::read(fd, text.data() + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += std::uint64_t(n);
  }
  ::close(fd);
  text.resize(got);
  return text;
}

std::string shorten(const std::string& text, std::size_t width) {
  std::string out = text;
  if (out.size() > width) {
    std::size_t cut = width > 3 ? width - 3 : 0;
    // Do not cut a UTF-8 sequence in half.
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out = out.substr(0, cut) + "...";
  }
  return one_line(out);  // a line break in it would split the error line
}

}  // namespace hwsim
