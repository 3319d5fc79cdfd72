#include "models/gpu/tile/stream_lowering.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "models/gpu/tile/reduce_lowering.h"

namespace hwsim {

namespace {
// A typical elementwise CTA: 256 threads, each with four 16-byte loads in flight.
constexpr double kThreadsPerCta = 256;
constexpr double kBytesInFlightPerThread = 64;
// A row-reduction (norm) CTA walks its row in a loop with one 8-byte load per thread in flight
// (fitted on the rmsnorm records of shared/calibration), and passes over the row twice
// (statistics, then normalise-and-store; the second pass hits L2), reading the norm's weights
// (γ, β: the bytes read beyond the rows), which every CTA shares through L2.
constexpr double kNormBytesInFlightPerThread = 8;
constexpr double kNormMaxCtasPerSlot = 4;  // beyond this, rows share CTAs (grid-stride loop)
// The norm's second pass finds its row in L2 only while the rows the resident CTAs hold, read and
// written, fit in this share of it: between a row's two reads every other resident CTA reads and
// writes its own. Half: the L2 is two partitions, each caching what its half of the SMs read (A100,
// H100 whitepapers; the A100's measured L2 latency and bandwidth step at ~20 of 40 MB).
constexpr double kNormL2ReuseShare = 0.5;
// Softmax (PyTorch SoftMax.cu): rows up to 2048 elements and 8 KiB are held in registers by a warp
// (persistent softmax: one pass; softmax_warp_forward ran 2048-wide rows of bf16 and fp32 on the
// H100's torch 2.11, scripts/measure/kernel_shapes_probe.py); longer rows that fit a block's shared memory (the 48 KiB a block
// gets without opting in; the few bytes of its reduction buffer aside) are read once into it
// (cunn_SoftMaxForwardSmem), a CTA bound by its instructions per element (ElementwiseHabits);
// longer rows still are walked three times by a CTA (max, sum of exp, normalise-and-store), the
// later passes from L2, with vectorised loads.
constexpr double kPersistentSoftmaxRowBytes = 8192;
constexpr double kPersistentSoftmaxRowElements = 2048;
constexpr double kSmemSoftmaxRowBytes = 48 * 1024;
constexpr int kBlockSoftmaxPasses = 3;
// DRAM and L2 move 32-byte sectors (StreamOp::strided_read_bytes: how much of one a strided
// access uses).
constexpr double kSectorBytes = 32;

// `lane_instructions` of a kernel bound by its instruction mix, as the FP32 FLOP that take the SM the
// same time (the kernel's math rate is the FP32 FMA rate: 2 FLOP a lane a clock): they issue at
// the schedulers' rate, which is above the FMA rate where the chip has fewer FP32 lanes (A100).
double issue_flops(const GpuChip& chip, double lane_instructions) {
  double fma_lanes = chip.flops_per_clock[int(DType::fp32)] / 2;
  double issue_lanes = chip.paths.issue_lanes_per_clock > 0 ? chip.paths.issue_lanes_per_clock : fma_lanes;
  return 2 * lane_instructions * (issue_lanes > 0 ? fma_lanes / issue_lanes : 1.0);
}

// One CTA per row (up to kNormMaxCtasPerSlot per slot), each reading its row `passes` times (the
// passes after the first from L2) plus the shared weights (bytes read beyond the rows), and
// issuing `ops_per_row_byte` lane instructions per byte of its rows on top of the op's arithmetic.
Kernel lower_rows(const StreamOp& op, const GpuChip& chip, TensorIds tensors, std::int64_t weights_object, Kernel k,
                  double bytes_per_thread, int passes, const char* what, double ops_per_row_byte = 0,
                  bool reuse_by_footprint = false) {
  k.bytes_in_flight = kThreadsPerCta * bytes_per_thread;
  double slots = double(chip.sm_count) * k.ctas_per_sm;
  double rows = double(std::max<std::int64_t>(1, op.rows));
  double ctas = std::min(rows, slots * kNormMaxCtasPerSlot);
  double rows_per_cta = rows / ctas;
  // Rows in and out have the same size; what is read beyond them is the weights.
  double row_written = op.bytes_written / rows;
  double row_read = std::min(op.bytes_read / rows, row_written > 0 ? row_written : op.bytes_read / rows);
  double weights = std::max(0.0, op.bytes_read - row_read * rows);
  // The later passes re-read the row from L2 (with no tensor identity: as scratch), or, where the
  // resident rows overflow its share (reuse_by_footprint), from memory again.
  std::int64_t row_tensor = tensors.input >= 0 ? tensors.input : -1;
  // (A memory-side cache behind the L2 would still hold the row: there the caches decide.)
  bool from_memory = reuse_by_footprint && !chip.layout.has_mall() &&
                     std::min(rows, slots) * (row_read + row_written) > chip.l2_bytes * kNormL2ReuseShare;
  k.config = fmt::format("{} {} CTAs x {} threads, {:.3g} rows each, {} pass{}{}", what, ctas, kThreadsPerCta,
                         rows_per_cta, passes, passes > 1 ? "es" : "", from_memory ? " (re-read from memory)" : "");
  k.ctas.reserve(std::size_t(ctas), (std::size_t(passes) + 3) * std::size_t(ctas));
  for (std::int64_t i = 0; i < std::int64_t(ctas); ++i) {
    k.ctas.open(op.flops / ctas + issue_flops(chip, ops_per_row_byte * row_read * rows_per_cta));
    double begin = row_read * rows_per_cta * double(i), end = begin + row_read * rows_per_cta;
    k.ctas.read_blocks(row_tensor, begin, end);
    for (int pass = 1; pass < passes; ++pass) {
      if (from_memory) k.ctas.read({-1, end - begin});  // streaming: misses, allocates nothing
      else if (row_tensor >= 0) k.ctas.read_blocks(row_tensor, begin, end);
      else k.ctas.add_scratch(end - begin);
    }
    if (weights > 0) k.ctas.read({weights_object, weights});
    double out_begin = row_written * rows_per_cta * double(i);
    k.ctas.write_blocks(tensors.output, out_begin, out_begin + row_written * rows_per_cta);
  }
  return k;
}
}  // namespace

Kernel lower_stream(const StreamOp& op, const std::string& name, const std::string& op_class,
                    const GpuChip& chip, TensorIds tensors, std::int64_t object_base) {
  Kernel k;
  k.name = name;
  k.op_class = op_class;
  k.dtype = DType::fp32;
  k.sm_flop_rate = chip.flop_rate_per_sm(DType::fp32) * chip.simt_efficiency;
  k.ctas_per_sm = std::max(1, int(chip.threads_per_sm() / kThreadsPerCta));
  k.bytes_in_flight = kThreadsPerCta * kBytesInFlightPerThread;
  k.prologue = 0;
  k.flops = op.flops;
  k.min_bytes = op.bytes_read + op.bytes_written;
  k.peak_flop_rate = chip.peak_flop_rate(DType::fp32);
  // Each CTA lists the tensor blocks it touches: a kernel over more blocks than the model
  // simulates is refused before they are listed.
  check_kernel_size(name, (op.bytes_read + op.bytes_written) / kTensorBlock, "64 KiB tensor blocks");
  if (op_class == "norm")
    return lower_rows(op, chip, tensors, object_base, std::move(k), kNormBytesInFlightPerThread, 2, "row-norm", 0, true);
  if (op_class == "reduction") return lower_reduction(op, chip, tensors, std::move(k));
  if (op_class == "softmax") {
    double row_bytes = op.bytes_read / double(std::max<std::int64_t>(1, op.rows));
    double e = stream_element_bytes(op);
    if (row_bytes <= kPersistentSoftmaxRowBytes && row_bytes / e <= kPersistentSoftmaxRowElements)
      return lower_rows(op, chip, tensors, object_base, std::move(k), kBytesInFlightPerThread, 1, "softmax (persistent)");
    if (row_bytes <= kSmemSoftmaxRowBytes)
      return lower_rows(op, chip, tensors, object_base, std::move(k), kBytesInFlightPerThread, 1,
                        "softmax (shared memory)", chip.elementwise_library.softmax_ops_per_element / e);
    return lower_rows(op, chip, tensors, object_base, std::move(k), kBytesInFlightPerThread, kBlockSoftmaxPasses,
                      "softmax");
  }
  // Strided reads (a transposing copy): each access moves a whole sector through L2 for the few
  // bytes it uses; the sector's other bytes are found in L2 by later accesses. At the L1 each is a
  // line of its own that misses: the SM's tag stage spends scattered_read_clocks on it, beside
  // (overlapping) the kernel's instructions.
  double scattered = 0;  // in the kernel's FLOP, as the SM time they take
  if (op.strided_read_bytes > 0) {
    k.l2_read_factor = std::max(1.0, kSectorBytes / op.strided_read_bytes);
    scattered = chip.elementwise_library.scattered_read_clocks * op.bytes_read / op.strided_read_bytes /
                chip.clock_hz * k.sm_flop_rate;
  }
  // Row-wise kernels use one CTA per row (up to the chip's slots, then a grid-stride loop);
  // flat kernels cut the data into one slice per slot.
  double slots = double(chip.sm_count) * k.ctas_per_sm;
  double ctas = op.rows > 1 ? std::min<double>(double(op.rows), slots) : slots;
  double total = op.bytes_read + op.bytes_written;
  ctas = std::max(1.0, std::min(ctas, std::ceil(total / 512.0)));
  k.config = fmt::format("stream {} CTAs x {} threads ({} CTA/SM)", ctas, kThreadsPerCta, k.ctas_per_sm);
  k.ctas.reserve(std::size_t(ctas), 4 * std::size_t(ctas));
  // PyTorch's unvectorised kernel is bound by its instructions per element (ElementwiseHabits).
  double e = stream_element_bytes(op);
  double issue =
      op.unvectorized ? issue_flops(chip, chip.elementwise_library.unvectorized_ops_per_element * op.bytes_written / e) : 0;
  for (int i = 0; i < int(ctas); ++i) {
    k.ctas.open(std::max(op.flops + issue, scattered) / ctas);
    double read_share = op.bytes_read / ctas, write_share = op.bytes_written / ctas;
    k.ctas.read_blocks(tensors.input, read_share * i, read_share * (i + 1));
    k.ctas.write_blocks(tensors.output, write_share * i, write_share * (i + 1));
  }
  return k;
}

}  // namespace hwsim
