// MI300X peak dense rates per dtype match AMD's datasheet (chip-specs.md §2), and its hardware
// description has 8 XCDs of 38 CUs, 64-wide wavefronts and a 256 MiB memory-side cache.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/gpu/gpu_chip.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("mi300x: peak FLOP/s per dtype are the datasheet's") {
  GpuChip c = GpuChip::from_config(load_chip(chip_file("mi300x"), {}));
  auto tera = [&](DType t) { return c.peak_flop_rate(t) / 1e12; };
  CHECK(tera(DType::bf16) == doctest::Approx(1307.4).epsilon(0.001));
  CHECK(tera(DType::fp16) == doctest::Approx(1307.4).epsilon(0.001));
  CHECK(tera(DType::fp8) == doctest::Approx(2614.9).epsilon(0.001));
  CHECK(tera(DType::int8) == doctest::Approx(2614.9).epsilon(0.001));
  CHECK(tera(DType::tf32) == doctest::Approx(653.7).epsilon(0.001));
  CHECK(tera(DType::fp32) == doctest::Approx(163.4).epsilon(0.001));
}

TEST_CASE("mi300x: 8 XCDs of 38 CUs, wavefront 64, 4 MiB L2 per XCD, 256 MiB Infinity Cache") {
  GpuChip c = GpuChip::from_config(load_chip(chip_file("mi300x"), {}));
  CHECK(c.sm_count == 304);
  CHECK(c.layout.partitions == 8);
  CHECK(c.sms_per_partition() == 38);
  CHECK(c.partition_of_sm(37) == 0);
  CHECK(c.partition_of_sm(38) == 1);
  CHECK(c.warp_size == 64);
  CHECK(c.l2_bytes / c.layout.partitions == 4.0 * 1024 * 1024);
  CHECK(c.layout.has_mall());
  CHECK(c.layout.mall_bytes == 256.0 * 1024 * 1024);
  CHECK(c.shared_memory_per_sm == 64.0 * 1024);
  CHECK(c.vocabulary.compute_units == "CUs");
  CHECK(c.cluster_size == 1);
}

TEST_CASE("mi300x: an NVIDIA chip keeps one partition, no memory-side cache and cuBLAS tiles") {
  GpuChip h = GpuChip::from_config(load_chip(chip_file("h100"), {}));
  CHECK(h.layout.partitions == 1);
  CHECK_FALSE(h.layout.has_mall());
  CHECK(h.vocabulary.is_nvidia());
  CHECK(h.warp_size == 32);
  REQUIRE(h.gemm_library.tensor_tiles.size() == 8);
  CHECK(h.gemm_library.tensor_tiles.front().bm == 128);
  CHECK(h.gemm_library.tensor_tiles.front().bn == 256);
  CHECK(h.gemm_library.register_prefetch_stages == 0);
}
