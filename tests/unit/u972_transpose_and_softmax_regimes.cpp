// A transposing copy reads every element from a line of its own: the SM's L1 spends
// gpu.elementwise.scattered_read_clocks on each (lookup and fill), so its time per element is the
// same for bf16 and fp32, and it overlaps the unvectorised kernel's instructions. PyTorch's
// persistent (warp-per-row) softmax takes rows up to 2048 elements and 8 KiB.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/gpu/gpu_chip.h"
#include "models/gpu/tile/stream_lowering.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
StreamOp transpose(double n, double e) {
  StreamOp s;
  s.bytes_read = s.bytes_written = n * n * e;
  s.rows = std::int64_t(n);
  s.element_bytes = s.strided_read_bytes = e;
  s.unvectorized = true;
  return s;
}

double sm_clocks(const Kernel& k, const GpuChip& chip) {
  double flops = 0;
  for (const auto& c : k.ctas) flops += c.flops;
  return flops / k.sm_flop_rate * chip.clock_hz;
}

StreamOp softmax(double rows, double cols, double e) {
  StreamOp s;
  s.bytes_read = s.bytes_written = rows * cols * e;
  s.rows = std::int64_t(rows);
  s.element_bytes = e;
  return s;
}
}  // namespace

TEST_CASE("transpose: the L1's clocks per element read, whatever the element size") {
  GpuChip chip = GpuChip::from_config(load_chip(chip_file("h100"), {}));
  const double n = 4096, clocks = chip.elementwise_library.scattered_read_clocks;
  REQUIRE(clocks == doctest::Approx(2));
  for (double e : {2.0, 4.0})
    CHECK(sm_clocks(lower_stream(transpose(n, e), "t", "transpose", chip), chip) == doctest::Approx(clocks * n * n));
  // Set to nothing, the same kernel is bound by its unvectorised instructions instead.
  GpuChip free_reads = GpuChip::from_config(load_chip(chip_file("h100"), {"gpu.elementwise.scattered_read_clocks=0"}));
  double issue = 2 * chip.elementwise_library.unvectorized_ops_per_element * n * n;
  Kernel k = lower_stream(transpose(n, 2), "t", "transpose", free_reads);
  CHECK(sm_clocks(k, free_reads) * k.sm_flop_rate / free_reads.clock_hz == doctest::Approx(issue));
}

TEST_CASE("softmax: rows up to 2048 elements and 8 KiB stay in a warp's registers") {
  GpuChip chip = GpuChip::from_config(load_chip(chip_file("h100"), {}));
  auto regime = [&](double cols, double e) { return lower_stream(softmax(4096, cols, e), "s", "softmax", chip).config; };
  CHECK(contains(regime(2048, 2), "persistent"));
  CHECK(contains(regime(2048, 4), "persistent"));
  CHECK(contains(regime(4096, 2), "shared memory"));
  CHECK(contains(regime(32768, 2), "3 passes"));
}
