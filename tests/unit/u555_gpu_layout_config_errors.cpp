// Bad partition, memory-side cache and tile-list settings: one configuration error line each.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/gpu/gpu_chip.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
std::string chip_error(const std::string& chip, const std::vector<std::string>& sets) {
  try {
    GpuChip::from_config(load_chip(chip_file(chip), sets));
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::config);
    return e.what();
  }
  FAIL("accepted a bad chip");
  return {};
}
}  // namespace

TEST_CASE("gpu layout: partitions must split the compute units evenly") {
  std::string line = chip_error("mi300x", {"gpu.partitions=7"});
  CHECK(contains(line, "gpu.partitions"));
  CHECK(contains(line, "304"));
}

TEST_CASE("gpu layout: a memory-side cache needs its bandwidth and latency") {
  std::string line = chip_error("h100", {"memory.mall.size=64MiB"});
  CHECK(contains(line, "memory.mall"));
  CHECK(contains(line, "bandwidth"));
}

TEST_CASE("gpu layout: a GEMM tile list that is not BMxBN[xBK] is refused") {
  CHECK(contains(chip_error("h100", {"gpu.tile.gemm_tiles=128x"}), "gpu.tile.gemm_tiles"));
  CHECK(contains(chip_error("h100", {"gpu.tile.gemm_tiles=128xq"}), "'q' is not a tile edge"));
  CHECK(contains(chip_error("h100", {"gpu.tile.simt_gemm_tiles=64x64x16"}), "gpu.tile.simt_gemm_tiles"));
  CHECK(contains(chip_error("h100", {"gpu.tile.gemm_tiles=4096x64"}), "1-1024"));
}
