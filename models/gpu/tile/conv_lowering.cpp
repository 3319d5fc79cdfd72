#include "models/gpu/tile/conv_lowering.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "models/gpu/tile/gemm_lowering.h"
#include "models/gpu/tile/stream_lowering.h"
#include "sim/arith.h"
#include "sim/error.h"

namespace hwsim {

Kernel lower_conv(const ConvOp& conv, const std::string& name, const GpuChip& chip, std::int64_t object_base,
                  TensorIds tensors) {
  check_conv(conv, name);
  if (is_depthwise(conv)) return lower_stream(depthwise_as_stream(conv), name, "conv", chip, tensors, object_base);
  GemmOp g = conv_as_gemm(conv);
  // cuDNN's implicit GEMM pads the channels of its tiles to the vector width, so a small C·R·S
  // (a first layer's 3 channels) does not put the convolution on the unaligned fallback.
  auto padded = [&](std::int64_t n, DType t) { return round_up(n, std::max<std::int64_t>(1, std::llround(16 / bytes_per_element(t)))); };
  g.layout.lda = padded(g.k, g.a), g.layout.ldb = padded(g.k, g.b), g.layout.ldc = padded(g.n, g.out);
  DType math = gemm_math_dtype(g);
  if (!chip.supports(math))
    workload_error(fmt::format("{}: {} conv math is not supported by {} (its gpu.sm.flops_per_clock.{} is 0)", name,
                               dtype_name(math), chip.name, dtype_name(math)));
  return lower_gemm(g, name, choose_gemm_tiling(g, chip), chip, object_base, tensors);
}

}  // namespace hwsim
