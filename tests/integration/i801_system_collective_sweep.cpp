// A size sweep like nccl-tests: bytes=1KiB..1MiB doubles from 1024 to 1048576 B, 2^10 … 2^20:
// 11 sizes, one text row and one JSON sweep entry each, in order. busbw never falls as the size
// grows: time = fixed latency + size / bandwidth for each protocol, so size / time rises with size
// for each, and for the fastest of them; and it stays below the engine limit of i800 (348 GB/s
// with the same pinned parameters).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
// The two fitted parameters of h200x2.toml, pinned so the arithmetic above holds when they are refitted.
const char* const kPinned =
    " --set collective.launch_overhead=3us --set collective.channels=24 --set collective.channel_bandwidth=29GB/s";
}  // namespace

TEST_CASE("cli system: a 1KiB..1MiB sweep prints 11 rows and writes 11 sweep entries") {
  auto json = scratch_dir() / "sweep.json";
  CliRun r = run_hwsim(std::string("--system h200x2") + kPinned + " -w collective:op=all_reduce,bytes=1KiB..1MiB,ranks=2 --json '" +
                       json.string() + "'");
  REQUIRE(r.exit_code == 0);
  // nccl-tests' table: size, count, type, redop, root, then out-of-place and in-place halves, and
  // the average bus bandwidth a user diffs against.
  CHECK(contains(r.out, "out-of-place"));
  CHECK(contains(r.out, "in-place"));
  CHECK(contains(r.out, "        1024           256     float     sum      -1"));
  CHECK(contains(r.out, "# Avg bus bandwidth    : "));
  auto lines = lines_of(r.out);
  std::size_t header = 0;
  while (header < lines.size() && !contains(lines[header], "size (B)")) ++header;
  REQUIRE(header < lines.size());
  std::vector<double> sizes;
  for (std::size_t i = header + 1; i < lines.size() && !lines[i].empty(); ++i) {
    std::istringstream row(lines[i]);
    double size = 0;
    row >> size;
    sizes.push_back(size);
  }
  REQUIRE(sizes.size() == 11);
  for (std::size_t i = 0; i < 11; ++i) CHECK(sizes[i] == double(1024 << i));

  auto doc = nlohmann::json::parse(read_text(json));
  const auto& sweep = doc["result"]["collective"]["sweep"];
  REQUIRE(sweep.size() == 11);
  CHECK(doc["result"]["steps"].size() == 11);
  double last = 0;
  for (std::size_t i = 0; i < 11; ++i) {
    CHECK(sweep[i]["bytes"].get<double>() == double(1024 << i));
    double busbw = sweep[i]["busbw"].get<double>();
    CHECK(busbw >= last);
    last = busbw;
  }
  CHECK(last < 348);  // the engine limit of i800 bounds every size
}
