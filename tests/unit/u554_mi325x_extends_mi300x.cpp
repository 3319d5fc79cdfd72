// MI325X is the MI300X's compute with 256 GB HBM3E at 6 TB/s and 1000 W (configs/mi325x.toml
// extends mi300x.toml).
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/gpu/gpu_chip.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("mi325x: its own memory and power, everything else inherited from mi300x") {
  GpuChip m = GpuChip::from_config(load_chip(chip_file("mi325x"), {}));
  GpuChip base = GpuChip::from_config(load_chip(chip_file("mi300x"), {}));
  CHECK(m.name == "AMD Instinct MI325X");
  CHECK(m.hbm_bytes == 256.0 * 1024 * 1024 * 1024);
  CHECK(m.hbm_bandwidth == 6e12);
  CHECK(m.power.limit == 1000);
  CHECK(m.sm_count == base.sm_count);
  CHECK(m.layout.partitions == base.layout.partitions);
  CHECK(m.layout.mall_bytes == base.layout.mall_bytes);
  CHECK(m.peak_flop_rate(DType::bf16) == base.peak_flop_rate(DType::bf16));
  CHECK(m.tensor_efficiency == base.tensor_efficiency);
  CHECK(m.gemm_library.tensor_tiles.size() == base.gemm_library.tensor_tiles.size());
}
