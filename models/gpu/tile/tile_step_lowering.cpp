#include "models/gpu/tile/tile_step_lowering.h"

#include <fmt/format.h>
#include <stdexcept>

#include "models/gpu/tile/attention_lowering.h"
#include "models/gpu/tile/conv_lowering.h"
#include "models/gpu/tile/gemm_alignment.h"
#include "models/gpu/tile/gemm_lowering.h"
#include "models/gpu/tile/quant_gemm_lowering.h"
#include "models/gpu/tile/stream_lowering.h"
#include "sim/error.h"

namespace hwsim {
namespace {

// FP8 storage needs the chip's FP8 conversion (Hopper and later); a chip without FP8 math
// (gpu.sm.flops_per_clock.fp8 = 0, e.g. A100) cannot hold fp8 weights or KV cache. The same for
// the block-scaled FP6/FP4 formats (Blackwell): they need the chip's fp6/fp4 rate.
void require_fp8_support(const GpuChip& chip, const std::string& op, const char* what, DType stored) {
  if (stored == DType::fp8 && !chip.supports(DType::fp8))
    workload_error(fmt::format("{}: fp8 {} is not supported by {} (no FP8 units: gpu.sm.flops_per_clock.fp8 is 0); "
                               "use bf16, fp16, int8 or int4", op, what, chip.name));
  if ((stored == DType::fp6 || stored == DType::fp4) && !chip.supports(stored))
    workload_error(fmt::format("{}: {} {} is not supported by {} (no {} tensor cores: gpu.sm.flops_per_clock.{} is 0); "
                               "use bf16, fp16, int8 or int4", op, dtype_name(stored), what, chip.name,
                               dtype_name(stored), dtype_name(stored)));
}

// The 8-bit GEMM libraries have no unaligned fallback: cuBLASLt's FP8 and INT8 kernels (PyTorch's
// _scaled_mm and _int_mm) need 16-byte aligned rows, and PyTorch refuses other shapes.
void require_library_alignment(const GemmOp& g, const std::string& op) {
  bool eight_bit = g.a == g.b && (g.a == DType::fp8 || g.a == DType::int8);
  GemmAlignment alignment = gemm_alignment(g);
  if (eight_bit && !alignment.tma())
    workload_error(fmt::format("{}: {} GEMM with {}; cuBLASLt's {} kernels need 16-byte aligned rows and base "
                               "addresses (PyTorch's {} refuses the shape): pad K and N to a multiple of 16",
                               op, dtype_name(g.a), alignment.reason, dtype_name(g.a),
                               g.a == DType::fp8 ? "_scaled_mm" : "_int_mm"));
}

void require_unfused(const Op& op) {
  if (!op.fused.empty())
    workload_error(fmt::format("{}: carries XLA-fused work ({}); the gpu device lowers kernels=eager or "
                               "kernels=fused graphs", op.name, op.fused.ops.front()));
}

}  // namespace

std::int64_t op_object_base(std::size_t index) { return std::int64_t(index + 1) << kOpObjectBits; }

std::vector<Kernel> lower_tile_op(const StepProgram& step, std::size_t index, const GpuChip& chip) {
  OpVertex v = step.order[index];
  return lower_tile_op((*step.graph)[v], step.tensors[v], op_object_base(index), chip);
}

std::vector<Kernel> lower_tile_op(const Op& op, const TensorIds& ids, std::int64_t object_base, const GpuChip& chip) {
  std::vector<Kernel> kernels;
  require_unfused(op);
  if (const auto* g = std::get_if<GemmOp>(&op.shape)) {
    require_fp8_support(chip, op.name, "weights", g->b);
    DType math = gemm_math_dtype(*g);
    if (!chip.supports(math))
      workload_error(fmt::format("{}: {} math is not supported by {} (its gpu.sm.flops_per_clock.{} is 0)",
                                 op.name, dtype_name(math), chip.name, dtype_name(math)));
    require_library_alignment(*g, op.name);
    if (is_weight_only(*g))
      kernels = lower_quant_gemm(*g, op.name, chip, object_base, ids);
    else
      kernels.push_back(lower_gemm(*g, op.name, choose_gemm_tiling(*g, chip), chip, object_base, ids));
  } else if (const auto* st = std::get_if<StreamOp>(&op.shape)) {
    kernels.push_back(lower_stream(*st, op.name, op.op_class, chip, ids, object_base));
  } else if (const auto* at = std::get_if<AttentionOp>(&op.shape)) {
    require_fp8_support(chip, op.name, "KV cache", at->kv_dtype);
    if (!chip.supports(at->dtype))
      workload_error(fmt::format("{}: {} attention math is not supported by {}", op.name, dtype_name(at->dtype),
                                 chip.name));
    kernels = lower_attention(*at, op.name, chip, object_base, ids);
  } else if (const auto* cv = std::get_if<ConvOp>(&op.shape)) {
    require_fp8_support(chip, op.name, "weights", cv->b);
    kernels.push_back(lower_conv(*cv, op.name, chip, object_base, ids));
  } else {
    throw std::logic_error(op.name + ": a collective reached a device: the system runner runs it on links");
  }
  return kernels;
}

std::vector<Kernel> lower_tile_step(const StepProgram& step, const GpuChip& chip) {
  std::vector<Kernel> kernels;
  for (std::size_t i = 0; i < step.order.size(); ++i)
    for (auto& k : lower_tile_op(step, i, chip)) kernels.push_back(std::move(k));
  return kernels;
}

}  // namespace hwsim
