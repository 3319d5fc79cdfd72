// Weight-only int4/int8 GEMMs: the fused tinygemm kernel (one CTA per 16×8 output tile, weights
// re-read per 16-row pass), the separate dequantisation (a kernel writing the bf16 weights the GEMM
// then loads) and the eager int8 path (cast, then scale).
#include <doctest/doctest.h>

#include <set>

#include "ops/device.h"
#include "models/gpu/gpu_chip.h"
#include "models/gpu/tile/quant_gemm_lowering.h"
#include "sim/error.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
GemmOp int4(std::int64_t m, Dequant d) {
  GemmOp g;
  g.m = m, g.n = 4096, g.k = 4096, g.a = g.out = DType::bf16, g.b = DType::int4, g.dequant = d;
  return g;
}

double read_bytes(const Kernel& k, bool objects_only) {
  double b = 0;
  for (const auto& c : k.ctas)
    for (const auto& r : c.reads) b += (!objects_only || r.object >= 0) ? r.bytes : 0;
  return b;
}
double written_bytes(const Kernel& k) {
  double b = 0;
  for (const auto& c : k.ctas)
    for (const auto& w : c.writes) b += w.bytes;
  return b;
}
}  // namespace

TEST_CASE("quantised GEMM: tinygemm re-reads the weights once per 16-row pass") {
  GpuChip chip = GpuChip::from_config(load_chip(chip_file("h100"), {}));
  // int4 weights and one bf16 (scale, zero) pair per 128 weights along K: 0.5 + 4/128 B/weight.
  const double packed = 4096.0 * 4096 * (0.5 + 4.0 / 128);
  CHECK(quant_scale_bytes(int4(1, Dequant::fused)) == doctest::Approx(4096.0 * 32 * 4));
  auto one = lower_quant_gemm(int4(1, Dequant::fused), "g", chip, std::int64_t(1) << 40, {});
  auto many = lower_quant_gemm(int4(64, Dequant::fused), "g", chip, std::int64_t(1) << 40, {});
  REQUIRE(one.size() == 1);
  CHECK(one[0].ctas.size() == 4096 / 8);                // one CTA per 8 output columns
  CHECK(many[0].ctas.size() == 4 * 4096 / 8);           // × 4 passes of 16 rows
  // The activations have no tensor id here: every read is of an object. Weights: packed per pass;
  // activations: the pass's rows × K × 2 B per CTA.
  CHECK(read_bytes(one[0], true) == doctest::Approx(packed + 512 * 1 * 4096 * 2.0));
  CHECK(read_bytes(many[0], true) == doctest::Approx(4 * packed + 2048 * 16 * 4096 * 2.0));
  CHECK(contains(one[0].config, "tinygemm"));
}

TEST_CASE("quantised GEMM: separate dequantisation writes the bf16 weights the GEMM loads") {
  GpuChip chip = GpuChip::from_config(load_chip(chip_file("h100"), {}));
  auto k = lower_quant_gemm(int4(1, Dequant::separate), "g", chip, std::int64_t(1) << 40, {});
  REQUIRE(k.size() == 2);
  CHECK(k[0].op_class == "dequant");
  CHECK(written_bytes(k[0]) == doctest::Approx(4096.0 * 4096 * 2));
  // Every object the dequantisation writes is a weight panel the GEMM reads.
  std::set<std::int64_t> written, read;
  for (const auto& c : k[0].ctas)
    for (const auto& w : c.writes) written.insert(w.object);
  for (const auto& c : k[1].ctas)
    for (const auto& r : c.reads) read.insert(r.object);
  for (auto id : written) CHECK(read.count(id) == 1);
}

TEST_CASE("quantised GEMM: eager dequantisation is a cast and a scale for int8, refused for packed int4") {
  GpuChip chip = GpuChip::from_config(load_chip(chip_file("h100"), {}));
  GemmOp g = int4(1, Dequant::eager);
  CHECK_THROWS_AS(lower_quant_gemm(g, "g", chip, std::int64_t(1) << 40, {}), UserError);
  g.b = DType::int8;
  auto k = lower_quant_gemm(g, "g", chip, std::int64_t(1) << 40, {});
  REQUIRE(k.size() == 3);
  CHECK(k[0].name == "g.cast");
  CHECK(k[1].name == "g.scale");
}
