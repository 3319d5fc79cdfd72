#include "models/gpu/tile/reduce_lowering.h"

#include <algorithm>
#include <fmt/format.h>

namespace hwsim {

namespace {
// setReduceConfig's constants (ATen native/cuda/Reduce.cuh): at most 512 threads per CTA
// (max_reduce_threads), a warp of 32 across the reduced dimension, vectors of 4 elements when a
// long contiguous row is read (dim0 > 128), a split over warps and then over CTAs only while each
// thread keeps at least 16 values (min_values_per_thread), up to 256 (max_values_per_thread).
constexpr int kMaxThreads = 512;
constexpr int kWarp = 32;
constexpr int kVectorElements = 4;
constexpr std::int64_t kVectoriseAbove = 128;
constexpr std::int64_t kMinValuesPerThread = 16;
constexpr std::int64_t kMaxValuesPerThread = 256;
// Each thread keeps four elements in flight (vt0 = 4: one 4-element vector load, or four scalar
// loads unrolled) and waits for them before its next load: the loop is latency-bound.
constexpr int kElementsInFlight = 4;

std::int64_t div_up(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// The largest power of two ≤ n (n ≥ 1), capped at kMaxThreads.
int pow2_floor_capped(std::int64_t n) {
  if (n >= kMaxThreads) return kMaxThreads;
  int p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}
}  // namespace

ReduceShape reduce_shape(std::int64_t outputs, std::int64_t inputs_per_output, int threads_per_sm, int sms) {
  outputs = std::max<std::int64_t>(1, outputs);
  inputs_per_output = std::max<std::int64_t>(1, inputs_per_output);
  ReduceShape s;
  bool vectorise = inputs_per_output > kVectoriseAbove;
  s.elements_per_load = vectorise ? kVectorElements : 1;
  std::int64_t dim0 = vectorise ? inputs_per_output / kVectorElements : inputs_per_output;
  // set_block_dimension: a warp across the row, as many rows as fit, then widen to 512 threads.
  int width = std::min(pow2_floor_capped(dim0), kWarp);
  int height = std::min(pow2_floor_capped(outputs), kMaxThreads / width);
  width = std::min(pow2_floor_capped(dim0), kMaxThreads / height);
  s.threads = width * height;
  std::int64_t step_input = width, step_output = 1;
  auto values_per_thread = [&] { return div_up(inputs_per_output, step_input); };
  bool split_across_warps = values_per_thread() >= std::min<std::int64_t>(std::int64_t(height) * 16, kMaxValuesPerThread);
  if (split_across_warps)
    step_input *= height;
  else
    step_output *= height;
  std::int64_t grid = div_up(outputs, step_output);
  std::int64_t target = std::int64_t(sms) * std::max(1, threads_per_sm / s.threads);
  if (split_across_warps && values_per_thread() >= kMaxValuesPerThread && grid <= target) {
    std::int64_t by_grid = div_up(target, grid), by_min = div_up(values_per_thread(), kMinValuesPerThread);
    s.ctas_per_output = std::max(std::min(by_grid, by_min), div_up(values_per_thread(), kMaxValuesPerThread));
    step_input *= s.ctas_per_output;
  }
  s.ctas = grid * s.ctas_per_output;
  s.rows_per_cta = step_output;
  s.loads_per_thread = div_up(values_per_thread(), kElementsInFlight);
  return s;
}

Kernel lower_reduction(const StreamOp& op, const GpuChip& chip, TensorIds tensors, Kernel k) {
  double e = stream_element_bytes(op);
  std::int64_t rows = std::max<std::int64_t>(1, op.rows);
  auto per_row = std::int64_t(std::max(1.0, op.bytes_read / double(rows) / e));
  ReduceShape s = reduce_shape(rows, per_row, chip.threads_per_sm(), chip.sm_count);
  check_kernel_size(k.name, double(s.ctas), "CTAs");
  k.ctas_per_sm = std::clamp(chip.threads_per_sm() / s.threads, 1, std::max(1, chip.max_ctas_per_sm));
  k.bytes_in_flight = double(s.threads) * kElementsInFlight * e;
  if (s.ctas_per_output > 1) k.grid_combine = chip.reduce_combine;
  k.config = fmt::format("reduce {} CTAs x {} threads ({} per row{}), {} loads per thread", s.ctas, s.threads,
                         s.ctas_per_output, s.ctas_per_output > 1 ? ", combined by the last CTA" : "",
                         s.loads_per_thread);
  auto ctas = double(s.ctas);
  double read_share = op.bytes_read / ctas, write_share = op.bytes_written / ctas;
  k.ctas.reserve(std::size_t(s.ctas), 2 * std::size_t(s.ctas));
  for (std::int64_t i = 0; i < s.ctas; ++i) {
    k.ctas.open(op.flops / ctas);
    k.ctas.read_blocks(tensors.input, read_share * double(i), read_share * double(i + 1));
    k.ctas.write_blocks(tensors.output, write_share * double(i), write_share * double(i + 1));
  }
  return k;
}

}  // namespace hwsim
