// Output files: a FIFO is written through (it stays a FIFO); a regular file is replaced whole;
// a failed write leaves nothing behind.
#include <doctest/doctest.h>

#include <filesystem>
#include <sys/stat.h>
#include <thread>

#include "app/cli/output_file.h"
#include "sim/error.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
namespace fs = std::filesystem;

TEST_CASE("output: a FIFO is written through, not renamed over") {
  auto fifo = (test::scratch_dir() / "pipe").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] { got = test::read_text(fifo); });
  write_output(fifo, "{\"a\": 1}\n");
  reader.join();
  CHECK(got == "{\"a\": 1}\n");
  CHECK(fs::is_fifo(fifo));
}

TEST_CASE("output: a regular file is replaced whole, a failed write leaves no file") {
  auto path = test::scratch_dir() / "out.json";
  write_output(path.string(), "old\n");
  write_output(path.string(), "new\n");
  CHECK(test::read_text(path) == "new\n");
  auto missing = test::scratch_dir() / "no_such_dir" / "out.json";
  CHECK_THROWS_AS(write_output(missing.string(), "x"), UserError);
  CHECK_FALSE(fs::exists(missing));
  for (const auto& entry : fs::directory_iterator(test::scratch_dir()))
    CHECK(entry.path().filename().string().find(".tmp") == std::string::npos);
}
