#include "models/gpu/tile/int8pack_lowering.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "models/gpu/tile/stream_lowering.h"
#include "sim/arith.h"
#include "sim/error.h"

namespace hwsim {
namespace {

// int8mm.cu's launch: dim3 block(16, 16), x along N (outputs), y along M (activation rows).
constexpr std::int64_t kBlockN = 16, kBlockM = 16;
constexpr double kFp32Bytes = 4;  // x, the scales and the result are converted to fp32 around the kernel
constexpr double kScaleBytes = 2; // the caller's per-channel scales (bf16)

// L2 objects beside the GEMM's own: the fp32 copy of x by row block, and the fp32 scales.
constexpr std::int64_t kXObjects = std::int64_t(1) << 35;
constexpr std::int64_t kScaleObject = std::int64_t(1) << 36;
constexpr std::int64_t kWeightObjects = std::int64_t(1) << 32;

// A cast of `elements` values from `from` to `to` bytes each, on PyTorch's unvectorised
// elementwise kernel (a cast between dtypes never takes the vectorised one). StreamOp counts the
// elements as bytes_written / element_bytes, so element_bytes is the output's here.
Kernel cast_kernel(double elements, double from, double to, const std::string& name, const GpuChip& chip,
                   TensorIds tensors) {
  StreamOp op;
  op.bytes_read = elements * from;
  op.bytes_written = elements * to;
  op.element_bytes = to;
  op.unvectorized = true;
  return lower_stream(op, name, "elementwise", chip, tensors);
}

class Int8PackBuilder {
 public:
  Int8PackBuilder(const GemmOp& g, const GpuChip& chip, std::int64_t object_base)
      : g_(g), chip_(chip), loop_(chip.quant_library.simt_loop), base_(object_base),
        weight_lines_(weight_lines_per_trip(g, loop_)),
        rows_per_warp_(double(std::max<std::int64_t>(1, chip.warp_size / kBlockN))) {}

  Kernel build(const std::string& name) {
    Kernel k = header(name);
    std::int64_t bx = ceil_div(g_.n, kBlockN), by = ceil_div(g_.m, kBlockM);
    check_kernel_size(name, double(bx) * double(by), "CTAs");
    double lines = 0;  // L1 lines over all CTAs, for the description
    for (std::int64_t y = 0; y < by; ++y)
      for (std::int64_t x = 0; x < bx; ++x) k.ctas.push_back(cta(x, y, lines));
    k.config = fmt::format("_weight_int8pack_mm: one thread per output, {}x{} blocks, {} CTAs ({} CTA/SM); a warp's "
                           "trip over K touches {:.0f} lines of W (rows {} B apart) and its rows of x: {:.3g} L1 lines "
                           "in all, weights read {:.3g} MB",
                           kBlockN, kBlockM, k.ctas.size(), k.ctas_per_sm, weight_lines_, g_.k, lines,
                           double(g_.n) * double(g_.k) / 1e6);
    return k;
  }

 private:
  // Distinct lines a warp's 16 weight loads touch in one trip: one per row of W when a row is at
  // least a line long, else the rows' bytes in lines.
  static double weight_lines_per_trip(const GemmOp& g, const SimtLoopCosts& loop) {
    double rows = double(std::min(kBlockN, g.n));
    return double(g.k) >= loop.line_bytes ? rows : std::ceil(rows * double(g.k) / loop.line_bytes);
  }

  Kernel header(const std::string& name) const {
    Kernel k;
    k.name = name;
    k.op_class = "gemm";
    k.dtype = DType::fp32;
    k.sm_flop_rate = chip_.flop_rate_per_sm(DType::fp32);
    k.ctas_per_sm = std::max(1, std::min(chip_.max_ctas_per_sm, int(chip_.threads_per_sm() / (kBlockN * kBlockM))));
    // Each trip a warp waits for its loads, converts the weight and adds the product.
    double trip_latency = loop_.l1_latency_clocks + 2 * loop_.fp32_latency_clocks;
    k.prologue = double(g_.k) * trip_latency / chip_.clock_hz;
    // In flight per CTA: one trip's sectors for each of its warps (weight rows and x rows).
    double warps = std::ceil(double(std::min(kBlockM, g_.m)) / rows_per_warp_);
    k.bytes_in_flight = warps * (weight_lines_ + rows_per_warp_) * loop_.sector_bytes;
    k.flops = 2.0 * double(g_.m) * double(g_.n) * double(g_.k);
    k.min_bytes = double(g_.m) * double(g_.k) * kFp32Bytes + double(g_.n) * (double(g_.k) + kFp32Bytes) +
                  double(g_.m) * double(g_.n) * kFp32Bytes;
    k.peak_flop_rate = chip_.peak_flop_rate(DType::fp32);
    return k;
  }

  // Block (x, y): `cols` outputs along N for `rows` activation rows. Its warps each hold
  // warp_size / 16 rows (two on NVIDIA); a trip costs the SM's L1 one line per weight row and per
  // activation row.
  CtaWork cta(std::int64_t x, std::int64_t y, double& lines_total) const {
    double cols = double(std::min(kBlockN, g_.n - x * kBlockN));
    double rows = double(std::min(kBlockM, g_.m - y * kBlockM));
    double warps = std::ceil(rows / rows_per_warp_);
    double lines = double(g_.k) * (warps * weight_lines_ * cols / double(std::min(kBlockN, g_.n)) + rows);
    lines_total += lines;
    CtaWork c;
    c.flops = lines / loop_.l1_lines_per_clock / chip_.clock_hz * chip_.flop_rate_per_sm(DType::fp32);
    double k = double(g_.k);
    c.reads.push_back({base_ + kWeightObjects + x, cols * k});
    c.reads.push_back({base_ + kXObjects + y, rows * k * kFp32Bytes});
    c.reads.push_back({base_ + kScaleObject, cols * kFp32Bytes, double(x * kBlockN) * kFp32Bytes});
    c.writes.push_back({-1, rows * cols * kFp32Bytes});
    return c;
  }

  const GemmOp& g_;
  const GpuChip& chip_;
  const SimtLoopCosts& loop_;
  std::int64_t base_;
  double weight_lines_;
  double rows_per_warp_;  // activation rows a warp's threads cover (the block is 16 outputs wide)
};

}  // namespace

std::vector<Kernel> lower_int8pack(const GemmOp& g, const std::string& name, const GpuChip& chip,
                                   std::int64_t object_base, TensorIds tensors) {
  if (g.b != DType::int8)
    workload_error(fmt::format("{}: the int8pack kernel (_weight_int8pack_mm) multiplies int8 weights, not {}", name,
                               dtype_name(g.b)));
  if (g.groups != 1)
    workload_error(fmt::format("{}: the int8pack kernel (_weight_int8pack_mm) multiplies one weight matrix, not {} "
                               "groups; use quant_kernel=tinygemm or marlin",
                               name, g.groups));
  double act = bytes_per_element(g.a), mk = double(g.m) * double(g.k), mn = double(g.m) * double(g.n);
  std::vector<Kernel> kernels;
  kernels.push_back(cast_kernel(mk, act, kFp32Bytes, name + ".x_to_fp32", chip, {tensors.input, -1}));
  kernels.push_back(cast_kernel(double(g.n), kScaleBytes, kFp32Bytes, name + ".scales_to_fp32", chip, {}));
  kernels.push_back(Int8PackBuilder(g, chip, object_base).build(name));
  kernels.push_back(cast_kernel(mn, kFp32Bytes, bytes_per_element(g.out), name + ".out_to_" + std::string(dtype_name(g.out)), chip,
                                {-1, tensors.output}));
  return kernels;
}

}  // namespace hwsim
