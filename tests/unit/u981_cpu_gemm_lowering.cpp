// How the cpu kind lowers a GEMM: the engine (AMX for M of at least a tile's 16 rows, the SIMD unit
// below; a GEMV below the microkernel's rows), the math dtype (int8 for llama.cpp's weight-only
// formats; fp32 where the SIMD unit lacks the dtype) and the blocking's traffic (weights once from
// DRAM; activations that fit half the L3 stay there; A re-read once per B panel otherwise).
#include <doctest/doctest.h>

#include <cmath>

#include "models/cpu/cpu_lowering.h"
#include "ops/device.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
CpuChip chip(const char* name) { return CpuChip::from_config(load_chip(chip_file(name), {})); }
GemmOp gemm(std::int64_t m, std::int64_t n, std::int64_t k, DType a, DType b) {
  GemmOp g;
  g.m = m, g.n = n, g.k = k, g.a = a, g.b = b, g.out = a;
  return g;
}
}  // namespace

TEST_CASE("cpu gemm: AMX from 16 rows, VNNI GEMV for one, the same weights' bytes from DRAM either way") {
  CpuChip x = chip("xeon_8480");
  CpuWork decode = lower_cpu_gemm(gemm(1, 4096, 4096, DType::bf16, DType::int4), x);
  CpuWork prefill = lower_cpu_gemm(gemm(512, 4096, 4096, DType::bf16, DType::int4), x);
  CHECK(decode.engine == "simd");
  CHECK(decode.dtype == "int8");
  CHECK(prefill.engine == "amx");
  CHECK(decode.dram_bytes == doctest::Approx(4096.0 * 4096 * 18 / 32));  // Q4_0 weights, activations in L3
  CHECK(prefill.dram_bytes == doctest::Approx(decode.dram_bytes));
  CHECK(prefill.flops == doctest::Approx(512 * decode.flops));
  // 512 times the work in much less than 512 times the time: the matrix unit's rate.
  CHECK(prefill.compute_seconds < 40 * decode.compute_seconds);
}

TEST_CASE("cpu gemm: fp16 on Zen 4 runs as fp32; a GEMM whose activations overflow the L3 re-reads them per panel") {
  CpuChip tr = chip("threadripper_7960x");
  CHECK(cpu_math_dtype(DType::fp16, DType::fp16, tr) == DType::fp32);
  CHECK(cpu_math_dtype(DType::bf16, DType::bf16, tr) == DType::bf16);
  CpuChip g = chip("graviton3");  // 32 MiB L3: B panels of 256 x nc fill 16 MiB
  GemmOp big = gemm(16384, 65536, 4096, DType::bf16, DType::bf16);
  CpuWork w = lower_cpu_gemm(big, g);
  double weights = 65536.0 * 4096 * 2, act = 16384.0 * 4096 * 2, out = 16384.0 * 65536 * 2;
  double nc = std::floor(g.l3_bytes / 2 / (256 * 2));
  CHECK(w.dram_bytes == doctest::Approx(weights + act * std::ceil(65536 / nc) + out));
  CHECK(w.min_bytes == doctest::Approx(weights + act + out));
}
