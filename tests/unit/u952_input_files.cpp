// Input files (sim/input_file.h): a regular file of bounded size is read; a folder, a FIFO, a
// device or a file over the limit is one io line, at once (a FIFO without a writer never blocks).
#include <doctest/doctest.h>

#include <sys/stat.h>

#include "sim/error.h"
#include "sim/input_file.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;

namespace {
std::string refusal(const std::string& path, std::uint64_t limit = kMaxInputBytes) {
  try {
    read_input_file(path, "test file", limit);
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::io);
    return e.what();
  }
  FAIL("read " << path);
  return {};
}
}  // namespace

TEST_CASE("input files: regular files are read; folders, FIFOs, devices and big files are refused") {
  auto dir = test::scratch_dir();
  auto file = (dir / "a.txt").string();
  std::ofstream(file) << "hello\n";
  CHECK(read_input_file(file, "test file") == "hello\n");
  CHECK(test::contains(refusal(dir.string()), "it is a folder, not a regular file"));
  auto fifo = (dir / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(test::contains(refusal(fifo), "it is a FIFO (pipe)"));
  CHECK(test::contains(refusal("/dev/zero"), "it is a device"));
  CHECK(refusal(file, 3) == file + ": test file of 6 bytes is larger than the 3 bytes an input file may have");
  CHECK(test::contains(refusal((dir / "missing").string()), "cannot read test file: No such file or directory"));
}

TEST_CASE("input files: echoed text is shortened, never cut inside a UTF-8 character") {
  CHECK(shorten("short") == "short");
  CHECK(shorten(std::string(100, 'x'), 10) == "xxxxxxx...");
  std::string text = "ab" + std::string("\xc2\xb5") + "cdefgh";  // µ at bytes 2-3
  CHECK(shorten(text, 6) == "ab...");
}

TEST_CASE("input files: echoed text never splits an error line") {
  CHECK(shorten("a\nb\tc\x7f") == "a?b?c?");
}
