#include "models/mcu/mcu_lowering.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <stdexcept>

#include "ops/footprint.h"
#include "sim/arith.h"
#include "sim/error.h"

namespace hwsim {
namespace {

// The geometry of a MAC op as both engines see it: a conv, or a GEMM as a 1 x m "image" of 1x1
// kernels (Vela runs a fully connected layer as a 1x1 vector product).
struct MacShape {
  std::int64_t batch = 1, oh = 1, ow = 1, out_c = 1, in_c_group = 1, kh = 1, kw = 1, groups = 1;
  std::int64_t stride = 1;
  bool depthwise = false;
  DType a = DType::int8, b = DType::int8;
  double macs = 0;
};

MacShape mac_shape(const Op& op) {
  MacShape s;
  if (const auto* c = std::get_if<ConvOp>(&op.shape)) {
    check_conv(*c, op.name);
    s = MacShape{c->batch, conv_out_h(*c), conv_out_w(*c), c->out_c, c->in_c / c->groups, c->kernel_h, c->kernel_w,
                 c->groups, std::max(c->stride_h, c->stride_w), is_depthwise(*c), c->a, c->b, conv_macs(*c)};
  } else if (const auto* g = std::get_if<GemmOp>(&op.shape)) {
    s = MacShape{1, 1, g->m, g->n * g->groups, g->k, 1, 1, g->groups, 1, false, g->a, g->b, 0};
    s.macs = double(g->m) * double(g->n) * double(g->k) * double(g->groups);
  }
  return s;
}

std::string supported_dtypes(const McuChip& chip) {
  std::vector<std::string> names;
  for (DType t : {DType::int8, DType::fp16, DType::fp32})
    if (chip.supports(t)) names.emplace_back(dtype_name(t));
  return fmt::format("{}", fmt::join(names, ", "));
}

DType math_dtype(const MacShape& s, const std::string& op, const McuChip& chip) {
  for (DType t : {s.a, s.b})
    if (!chip.supports(t))
      workload_error(fmt::format("{}: {} is not supported by {}: a Cortex-M{} core has no {} arithmetic "
                                 "(mcu.macs_per_cycle.{} is 0 or not a key); use {}",
                                 op, dtype_name(t), chip.name, chip.core.substr(1), dtype_name(t), dtype_name(t),
                                 supported_dtypes(chip)));
  return bytes_per_element(s.a) >= bytes_per_element(s.b) ? s.a : s.b;
}

// Why the NPU cannot run the op (Vela's operator constraints); empty when it can.
std::string npu_refusal(const Op& op, const MacShape& s, bool mac_op, const McuChip& chip) {
  const NpuSpec& n = chip.npu;
  if (mac_op) {
    if (s.a != DType::int8 || s.b != DType::int8)
      return fmt::format("{} math (the NPU runs int8)", dtype_name(s.a != DType::int8 ? s.a : s.b));
    if (s.stride > n.max_stride) return fmt::format("stride {} > npu.max_stride {}", s.stride, n.max_stride);
    if (std::max(s.kh, s.kw) > n.max_kernel)
      return fmt::format("kernel {}x{} > npu.max_kernel {}", s.kh, s.kw, n.max_kernel);
    if (s.groups > 1 && !s.depthwise && std::holds_alternative<ConvOp>(op.shape))
      return fmt::format("grouped conv ({} groups) has no Ethos-U operator", s.groups);
    return {};
  }
  const std::string& k = op.op_class;
  if (k == "pool" || k == "add" || k == "elementwise") return {};
  if (k == "softmax") return n.softmax ? std::string() : std::string("softmax disabled (npu.softmax = false)");
  return fmt::format("op class '{}' has no Ethos-U operator", k);
}

// Vela's DPU cycles of a MAC op (npu_performance.py _estimate_conv_cycles, one OFM block).
double npu_mac_cycles(const MacShape& s, const NpuSpec& n) {
  double ub_xy = double(s.batch) * double(ceil_div(s.oh, n.ublock_h)) * double(ceil_div(s.ow, n.ublock_w));
  double per_step = std::max(n.weight_decode_cycles, n.ublock_step_cycles() * ub_xy);
  if (s.depthwise)
    return per_step * double(ceil_div(s.kh * s.kw, n.depthwise_kernel_step)) * double(ceil_div(s.out_c, n.ublock_depth));
  double z = double(s.groups) * double(ceil_div(s.out_c / s.groups, n.ublock_depth));
  // Depth-first: every kernel element per IFM block of ifm_block_depth channels; part-kernel-first
  // (Vela's choice for shallow inputs): kernel_step elements at once per micro-block depth of channels.
  double depth_first = double(s.kh * s.kw) * double(ceil_div(s.in_c_group, n.ifm_block_depth));
  double part_kernel = double(ceil_div(s.kh * s.kw, n.depthwise_kernel_step)) * double(ceil_div(s.in_c_group, n.ublock_depth));
  return per_step * std::min(depth_first, part_kernel) * z;
}

// NPU cycles of a stream op (int8 elements: one byte each).
double npu_stream_cycles(const Op& op, const StreamOp& st, const NpuSpec& n) {
  double out = st.bytes_written;
  if (op.op_class == "pool") {
    double window = ratio(st.flops, out);
    double ublock = double(n.ublock_h) * n.ublock_w * n.ublock_depth;
    return std::max(std::max(n.ublock_step_cycles(), window) * std::ceil(out / ublock),
                    out * n.output_cycles_per_element);
  }
  if (op.op_class == "softmax") return out * n.elementwise_cycles_per_element * n.softmax_passes;
  return out * n.elementwise_cycles_per_element;
}

void on_npu(McuWork& w, const Op& op, const MacShape& s, bool mac_op, const McuChip& chip) {
  const NpuSpec& n = chip.npu;
  w.engine = Engine::npu;
  w.clock_hz = n.clock_hz;
  w.overhead = n.op_overhead_cycles / n.clock_hz;
  w.peak_flop_rate = chip.npu_peak_flop_rate();
  w.dma_rate = n.axi_bandwidth;
  w.weight_traffic = w.weight_bytes;
  if (mac_op) {
    double output = op_activation_output_bytes(op) * n.output_cycles_per_element;
    w.cycles = std::max(npu_mac_cycles(s, n), output);
    w.config = fmt::format("npu {}x{} s{} ublock {}x{}x{}{}", s.kh, s.kw, s.stride, n.ublock_h, n.ublock_w,
                           n.ublock_depth, s.depthwise ? " depthwise" : "");
  } else {
    w.cycles = npu_stream_cycles(op, std::get<StreamOp>(op.shape), n);
    w.config = "npu " + op.op_class;
  }
}

// The fraction of the SIMD MAC peak the kernel for this layer type sustains: depthwise (taps, not
// channels, are reduced), pointwise (1x1 stride 1: the input is the GEMM operand, no im2col), fully
// connected (a vector times a matrix: one MAC per weight loaded), convs over a one-channel input
// where the kernel pairs channels (scalar path), other convs (im2col + GEMM).
double cpu_efficiency(const Op& op, const MacShape& s, const McuChip& chip) {
  if (s.depthwise) return chip.cmsis_depthwise_efficiency;
  if (std::holds_alternative<GemmOp>(op.shape)) return chip.cmsis_fc_efficiency;
  if (s.kh == 1 && s.kw == 1 && s.stride == 1) return chip.cmsis_pointwise_efficiency;
  if (s.in_c_group == 1 && chip.cmsis_shallow_efficiency > 0) return chip.cmsis_shallow_efficiency;
  return chip.cmsis_efficiency;
}

void on_cpu(McuWork& w, const Op& op, const MacShape& s, bool mac_op, DType math, const McuChip& chip) {
  w.engine = Engine::cpu;
  w.clock_hz = chip.clock_hz;
  w.overhead = chip.cpu_op_overhead_cycles / chip.clock_hz;
  if (mac_op) {
    w.cycles = s.macs / (chip.macs_per_cycle[std::size_t(math)] * cpu_efficiency(op, s, chip)) +
               op_activation_output_bytes(op) / double(bytes_per_element(math)) * chip.cmsis_output_cycles;
    w.peak_flop_rate = chip.cpu_peak_flop_rate(math);
    // Without a cache that holds them, flash-resident filters are re-read per pass of output pixels.
    bool cached = w.weights_home == Home::sram || w.weight_bytes <= chip.dcache_bytes;
    double passes = std::max(1.0, std::ceil(double(s.batch * s.oh * s.ow) / chip.pixels_per_weight_pass));
    w.weight_traffic = w.weight_bytes * (cached ? 1.0 : passes);
    // The in-order core waits on every miss to flash-resident weights (no data prefetcher).
    if (w.weights_home == Home::flash) w.stall_cycles = w.weight_traffic * chip.flash_fetch.stall_cycles_per_byte();
  } else {
    w.cycles = op_flops(op) / (chip.simd_ops_per_cycle * chip.cmsis_efficiency);
    w.peak_flop_rate = chip.simd_ops_per_cycle * chip.clock_hz;
  }
  w.config = fmt::format("cpu cmsis-nn {} {}{}", op.op_class, dtype_name(math),
                         w.fallback.empty() ? std::string() : " (fallback: " + w.fallback + ")");
}

}  // namespace

McuWork lower_mcu_op(const Op& op, const McuChip& chip, Home weights_home) {
  if (std::holds_alternative<CollectiveOp>(op.shape))
    throw std::logic_error(op.name + ": a collective reached a device: the system runner runs it on links");
  if (std::holds_alternative<AttentionOp>(op.shape))
    workload_error(fmt::format("{}: attention is not modelled on the mcu device {} (TinyML ops: conv, depthwise "
                               "conv, pooling, fully connected, softmax, add)", op.name, chip.name));
  bool mac_op = std::holds_alternative<ConvOp>(op.shape) || std::holds_alternative<GemmOp>(op.shape);
  MacShape s = mac_shape(op);
  DType math = mac_op ? math_dtype(s, op.name, chip) : DType::int8;
  McuWork w;
  w.name = op.name;
  w.op_class = op.op_class;
  w.dtype = std::string(dtype_name(math));
  w.macs = mac_op ? s.macs : 0;
  w.flops = op_flops(op);
  w.min_bytes = op_min_bytes(op);
  w.weight_bytes = op_weight_bytes(op);
  w.weights_home = weights_home;
  w.activation_bytes = op_activation_input_bytes(op) + op_activation_output_bytes(op);
  if (chip.npu.present()) {
    w.fallback = npu_refusal(op, s, mac_op, chip);
    if (w.fallback.empty()) {
      on_npu(w, op, s, mac_op, chip);
      return w;
    }
  }
  on_cpu(w, op, s, mac_op, math, chip);
  return w;
}

}  // namespace hwsim
