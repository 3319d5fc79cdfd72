// The fuzz targets (fuzz/targets.h) replay their seed corpora and every past finding
// (fuzz/regressions/TARGET/): each input is accepted or refused with one line, nothing crashes,
// no other exception escapes. A finding of a fuzzer becomes a file in fuzz/regressions/, and so a
// test here, in the normal build as in the sanitizer build.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "fuzz/targets.h"

namespace {
namespace fs = std::filesystem;

int replay(const std::string& target) {
  auto body = hwsim::fuzz::target_named(target);
  REQUIRE(static_cast<bool>(body));
  int inputs = 0;
  for (const char* folder : {"corpus", "regressions"}) {
    fs::path dir = fs::path(HWSIM_SOURCE_DIR) / "fuzz" / folder / target;
    if (!fs::is_directory(dir)) continue;
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (!entry.is_regular_file() || entry.path().filename().string().front() == '.') continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream bytes;
      bytes << in.rdbuf();
      std::string data = bytes.str();
      INFO(entry.path().string());
      body(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
      ++inputs;
    }
  }
  return inputs;
}
}  // namespace

TEST_CASE("fuzz corpus replay: units") { CHECK(replay("units") >= 10); }
TEST_CASE("fuzz corpus replay: config") { CHECK(replay("config") >= 10); }
TEST_CASE("fuzz corpus replay: workload_spec") { CHECK(replay("workload_spec") >= 10); }
TEST_CASE("fuzz corpus replay: kernel") { CHECK(replay("kernel") >= 10); }
TEST_CASE("fuzz corpus replay: measurements") { CHECK(replay("measurements") >= 10); }
TEST_CASE("fuzz corpus replay: sweep_file") { CHECK(replay("sweep_file") >= 5); }
TEST_CASE("fuzz corpus replay: serve_trace") { CHECK(replay("serve_trace") >= 5); }
TEST_CASE("fuzz corpus replay: chakra") { CHECK(replay("chakra") >= 5); }
TEST_CASE("fuzz corpus replay: tiny_model") { CHECK(replay("tiny_model") >= 3); }
