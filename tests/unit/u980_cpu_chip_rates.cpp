// The shipped CPUs' peak rates from their ISA facts (SIMD width / 32 x FMA pipes x MACs per lane x 2 x
// clock x cores; AMX's 1024 bf16 MACs per cycle per core), llama.cpp's block formats as bytes per
// weight, and the DRAM rate a number of threads can draw (cores' miss queues, cluster ports, channels).
#include <doctest/doctest.h>

#include "models/cpu/cpu_chip.h"
#include "ops/device.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
CpuChip chip(const char* name, std::vector<std::string> set = {}) {
  return CpuChip::from_config(load_chip(chip_file(name), set));
}
}  // namespace

TEST_CASE("cpu peak: AVX-512 and AMX on the Xeon 8480+, SVE on Graviton3, NEON on the M2 Ultra") {
  CpuChip x = chip("xeon_8480"), g = chip("graviton3"), m = chip("apple_m2_ultra_cpu");
  CHECK(x.simd_peak_flop_rate(DType::fp32) == doctest::Approx(56 * 16 * 2 * 2 * 2.0e9));
  CHECK(x.simd_peak_flop_rate(DType::int8) == doctest::Approx(56 * 16 * 2 * 4 * 2 * 2.0e9));
  CHECK(x.matrix_peak_flop_rate(DType::bf16) == doctest::Approx(56 * 1024 * 2 * 2.0e9));  // 229 TFLOP/s
  CHECK(x.matrix_peak_flop_rate(DType::fp32) == 0);
  CHECK(g.simd_peak_flop_rate(DType::fp32) == doctest::Approx(64 * 8 * 2 * 2 * 2.6e9));
  CHECK(g.matrix_peak_flop_rate(DType::bf16) == 0);
  CHECK(m.simd_peak_flop_rate(DType::fp16) == doctest::Approx(16 * 4 * 4 * 2 * 2 * 3.3e9));
  CHECK(chip("threadripper_7960x").simd_macs_per_cycle(DType::fp16) == 0);  // Zen 4: no AVX512-FP16
}

TEST_CASE("cpu weights: Q4_0 and Q8_0 carry an fp16 scale per 32 weights; same-width weights their own bytes") {
  CpuChip x = chip("xeon_8480");
  CHECK(x.weight_bytes_per_element(DType::int4, DType::bf16) == doctest::Approx(18.0 / 32));
  CHECK(x.weight_bytes_per_element(DType::int8, DType::bf16) == doctest::Approx(34.0 / 32));
  CHECK(x.weight_bytes_per_element(DType::int8, DType::int8) == 1);
  CHECK(x.weight_bytes_per_element(DType::fp16, DType::bf16) == 2);
}

TEST_CASE("cpu DRAM rate: few threads are held by their cores, the M2 Pro by its clusters, many by the channels") {
  CpuChip x = chip("xeon_8480"), pro = chip("apple_m2_pro_cpu"), tr = chip("threadripper_7960x");
  CHECK(x.dram_rate(2) == doctest::Approx(2 * 14e9));
  CHECK(x.dram_rate(56) == doctest::Approx(8 * 38.4e9 * 0.8));
  CHECK(pro.dram_rate(8) == doctest::Approx(2 * 57e9));  // two P-clusters' ports, not the 205 GB/s bus
  CHECK(pro.dram_rate(1) == doctest::Approx(57e9));
  CHECK(tr.dram_rate(24) == doctest::Approx(4 * 41.6e9 * 0.8));  // four CCD links carry more than 4 channels
  CHECK(chip("xeon_8480", {"cpu.threads=112"}).active_cores() == 56);  // SMT threads add no cores
}
