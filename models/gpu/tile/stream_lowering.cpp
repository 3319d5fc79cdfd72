#include "models/gpu/tile/stream_lowering.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace hwsim {

namespace {
// A typical elementwise CTA: 256 threads, each with four 16-byte loads in flight.
constexpr double kThreadsPerCta = 256;
constexpr double kBytesInFlightPerThread = 64;
}  // namespace

Kernel lower_stream(const StreamOp& op, const std::string& name, const std::string& op_class,
                    const GpuChip& chip) {
  Kernel k;
  k.name = name;
  k.op_class = op_class;
  k.dtype = DType::fp32;
  k.sm_flop_rate = chip.flop_rate_per_sm(DType::fp32) * chip.simt_efficiency;
  k.ctas_per_sm = std::max(1, int(chip.max_warps_per_sm * 32 / kThreadsPerCta));
  k.bytes_in_flight = kThreadsPerCta * kBytesInFlightPerThread;
  k.prologue = chip.hbm_latency;
  k.flops = op.flops;
  k.min_bytes = op.bytes_read + op.bytes_written;
  k.peak_flop_rate = chip.peak_flop_rate(DType::fp32);
  // Row-wise kernels use one CTA per row (up to the chip's slots, then a grid-stride loop);
  // flat kernels cut the data into one slice per slot.
  double slots = double(chip.sm_count) * k.ctas_per_sm;
  double ctas = op.rows > 1 ? std::min<double>(double(op.rows), slots) : slots;
  double total = op.bytes_read + op.bytes_written;
  ctas = std::max(1.0, std::min(ctas, std::ceil(total / 512.0)));
  k.config = fmt::format("stream {} CTAs x {} threads ({} CTA/SM)", ctas, kThreadsPerCta, k.ctas_per_sm);
  k.ctas.reserve(std::size_t(ctas));
  for (int i = 0; i < int(ctas); ++i) {
    CtaWork c;
    c.flops = op.flops / ctas;
    c.reads = {{-1, op.bytes_read / ctas}};
    c.write_bytes = op.bytes_written / ctas;
    k.ctas.push_back(std::move(c));
  }
  return k;
}

}  // namespace hwsim
