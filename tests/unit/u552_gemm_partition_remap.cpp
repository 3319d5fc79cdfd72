// hipBLASLt's WorkGroupMappingXCC (gpu.tile.gemm_partition_remap): the hardware deals workgroup i
// to XCD i mod 8; the kernel renumbers them so each XCD runs a contiguous run of output tiles.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/gpu/gpu_chip.h"
#include "models/gpu/tile/gemm_lowering.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
// The A and B objects a CTA reads: its logical tile.
std::pair<std::int64_t, std::int64_t> tile_of(const CtaList::View& c) { return {c.reads.front().object, c.reads.back().object}; }
}  // namespace

TEST_CASE("gemm remap: XCD p runs the p-th contiguous run of the tile order") {
  GemmOp g{1024, 1280, 256, 1, DType::bf16, DType::bf16, DType::bf16};
  GpuChip remapped = GpuChip::from_config(load_chip(chip_file("mi300x"), {"gpu.tile.gemm_tiles=128x128x64"}));
  GpuChip plain = GpuChip::from_config(
      load_chip(chip_file("mi300x"), {"gpu.tile.gemm_tiles=128x128x64", "gpu.tile.gemm_partition_remap=false"}));
  GemmTiling t = choose_gemm_tiling(g, plain);
  REQUIRE(t.split_k == 1);
  REQUIRE_FALSE(t.stream_k);
  Kernel a = lower_gemm(g, "g", t, plain, 0), b = lower_gemm(g, "g", t, remapped, 0);
  const std::size_t n = a.ctas.size(), parts = 8;
  REQUIRE(n == 8 * 10);  // (1024/128) x (1280/128) tiles
  // 80 tiles over 8 XCDs: 10 each; hardware slot i → XCD i % 8, its (i / 8)-th tile.
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t p = i % parts, k = i / parts;
    CHECK(tile_of(b.ctas[i]) == tile_of(a.ctas[p * 10 + k]));
  }
}

TEST_CASE("gemm remap: an uneven grid gives the first n mod 8 XCDs one tile more") {
  GemmOp g{128, 128 * 11, 256, 1, DType::bf16, DType::bf16, DType::bf16};  // 11 tiles
  GpuChip remapped = GpuChip::from_config(load_chip(chip_file("mi300x"), {"gpu.tile.gemm_tiles=128x128x64"}));
  GpuChip plain = GpuChip::from_config(
      load_chip(chip_file("mi300x"), {"gpu.tile.gemm_tiles=128x128x64", "gpu.tile.gemm_partition_remap=false"}));
  GemmTiling t = choose_gemm_tiling(g, plain);
  REQUIRE(t.split_k == 1);
  Kernel a = lower_gemm(g, "g", t, plain, 0), b = lower_gemm(g, "g", t, remapped, 0);
  REQUIRE(a.ctas.size() == 11);
  // XCDs 0-2 take 2 tiles (runs starting at 0, 2, 4), XCDs 3-7 one (6..10).
  const std::size_t expected[11] = {0, 2, 4, 6, 7, 8, 9, 10, 1, 3, 5};
  for (std::size_t i = 0; i < 11; ++i) CHECK(tile_of(b.ctas[i]) == tile_of(a.ctas[expected[i]]));
}
