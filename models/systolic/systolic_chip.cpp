#include "models/systolic/systolic_chip.h"

#include "sim/config/config.h"
#include "sim/config/param.h"

#include <algorithm>

namespace hwsim {
namespace {

// Bounds that keep every product of them (cells, lanes, cycles) far inside 64-bit integers and the
// simulation's memory small; far above any chip (TPU v6e: 1 TensorCore, 4 MXUs of 256 x 256).
constexpr double kMaxTensorCores = 1024, kMaxMxus = 1024, kMaxArrayEdge = 65536, kMaxBlock = 1 << 24;

// Keys of a `kind = "systolic"` chip. memory.hbm.*, power.tdp, power.idle and
// power.hbm_energy_per_byte are shared with the GPU (models/memory/main_memory_params.cpp).
const ParamRegistration systolic_params({"systolic"}, {
    count_param("systolic.tensorcores", "TensorCores per chip (each with its MXUs, vector unit and VMEM)")
        .at_most(kMaxTensorCores),
    quantity_param("systolic.clock", Dimension::frequency, "TensorCore clock"),
    count_param("systolic.mxu.count", "matrix units (systolic arrays) per TensorCore").at_most(kMaxMxus),
    count_param("systolic.mxu.rows", "MAC cells per MXU column (the array's height)").at_most(kMaxArrayEdge),
    count_param("systolic.mxu.cols", "MAC cells per MXU row (the array's width)").at_most(kMaxArrayEdge),
    choice_param("systolic.mxu.dataflow", {"ws", "os", "is"},
                 "operand kept in the array: ws weight-, os output-, is input-stationary (SCALE-Sim names)")
        .defaults_to("ws"),
    choice_param("systolic.mxu.preload", {"overlapped", "serial"},
                 "overlapped: the next fold's stationary operand loads while the current one streams (TPU); "
                 "serial: load then stream, as SCALE-Sim counts").defaults_to("overlapped"),
    choice_param("systolic.mxu.os_drain", {"exposed", "overlapped"},
                 "output-stationary results: exposed = shifted out after each fold's stream (2R + C + T - 2 "
                 "per fold, the SCALE-Sim paper); overlapped = under the skew and the next stream "
                 "(R + C + T - 2, SCALE-Sim v2/v3's code)").defaults_to("exposed"),
    choice_param("systolic.mxu.orientation", {"auto", "as_given", "transposed"},
                 "GEMM operands in the array: auto = the faster of out = x.W^T and out^T = W.x^T (XLA may "
                 "swap them); as_given = x streamed as the ifmap, W the filter (SCALE-Sim); transposed = "
                 "always swapped").defaults_to("auto"),
    real_param("systolic.mxu.macs_per_cell.bf16", "BF16 multiply-adds per cell per clock; 0 = unsupported")
        .defaults_to("1").zero_allowed(),
    real_param("systolic.mxu.macs_per_cell.int8", "INT8 multiply-adds per cell per clock; 0 = unsupported")
        .defaults_to("0").zero_allowed(),
    real_param("systolic.mxu.macs_per_cell.fp8", "FP8 multiply-adds per cell per clock; 0 = unsupported")
        .defaults_to("0").zero_allowed(),
    real_param("systolic.mxu.macs_per_cell.fp16", "FP16 multiply-adds per cell per clock; 0 = unsupported")
        .defaults_to("0").zero_allowed(),
    real_param("systolic.mxu.macs_per_cell.tf32", "TF32-class (bf16x3 passes) multiply-adds per cell per clock; "
               "0 = unsupported").defaults_to("0").zero_allowed(),
    real_param("systolic.mxu.macs_per_cell.fp32", "FP32 (bf16x6 passes) multiply-adds per cell per clock; "
               "0 = unsupported").defaults_to("0").zero_allowed(),
    real_param("systolic.mxu.macs_per_cell.fp6", "FP6 (block-scaled) multiply-adds per cell per clock; "
               "0 = unsupported (no TPU modelled has FP6)").defaults_to("0").zero_allowed(),
    real_param("systolic.mxu.macs_per_cell.fp4", "FP4 (block-scaled) multiply-adds per cell per clock; "
               "0 = unsupported (no TPU modelled has FP4)").defaults_to("0").zero_allowed(),
    fraction_param("systolic.mxu.efficiency", "sustained fraction of the fold arithmetic (issue gaps between "
                   "pushes, result-buffer pops); estimate").defaults_to("0.9"),
    count_param("systolic.vpu.lanes", "vector unit lanes").at_most(kMaxArrayEdge).defaults_to("128"),
    count_param("systolic.vpu.sublanes", "vector unit sublanes").at_most(kMaxArrayEdge).defaults_to("8"),
    count_param("systolic.vpu.alus", "ALUs per (lane, sublane) cell; one vector op per ALU per clock")
        .defaults_to("2"),
    real_param("systolic.vpu.softmax_ops", "vector ops per attention score (mask, max, subtract, exp, sum, scale)")
        .defaults_to("6"),
    real_param("systolic.vpu.dequant_ops", "vector ops per weight element stored narrower than the math dtype "
               "(unpack/convert, scale)").defaults_to("2"),
    quantity_param("memory.vmem.size", Dimension::bytes, "VMEM scratchpad per TensorCore"),
    quantity_param("memory.vmem.bandwidth", Dimension::bandwidth,
                   "VMEM bandwidth to the MXUs and vector unit, per TensorCore"),
    quantity_param("memory.vmem.ifmap_size", Dimension::bytes,
                   "scratchpad of the streamed GEMM input, double-buffered (SCALE-Sim IfmapSramSzkB); "
                   "0 = the inputs and output share memory.vmem.size").defaults_to("0 B").zero_allowed(),
    quantity_param("memory.vmem.filter_size", Dimension::bytes,
                   "scratchpad of the other GEMM input (SCALE-Sim FilterSramSzkB); 0 = shared")
        .defaults_to("0 B").zero_allowed(),
    quantity_param("memory.vmem.ofmap_size", Dimension::bytes,
                   "scratchpad of the GEMM output and its f32 accumulator (SCALE-Sim OfmapSramSzkB); 0 = shared")
        .defaults_to("0 B").zero_allowed(),
    quantity_param("memory.hbm.ifmap_bandwidth", Dimension::bandwidth,
                   "DRAM channel of the ifmap (SCALE-Sim's ifmap interface bandwidth x word x clock); "
                   "0 = only the shared HBM limits it").defaults_to("0 B/s").zero_allowed(),
    quantity_param("memory.hbm.filter_bandwidth", Dimension::bandwidth,
                   "DRAM channel of the filter operand; 0 = only the shared HBM").defaults_to("0 B/s").zero_allowed(),
    quantity_param("memory.hbm.ofmap_bandwidth", Dimension::bandwidth,
                   "DRAM channel of the outputs; 0 = only the shared HBM").defaults_to("0 B/s").zero_allowed(),
    integer_param("systolic.gemm.block_m", "fixed GEMM block rows (a Pallas BlockSpec); 0 = the lowering "
                "chooses, as XLA tiles").at_most(kMaxBlock).defaults_to("0"),
    integer_param("systolic.gemm.block_n", "fixed GEMM block columns; 0 = chosen").at_most(kMaxBlock)
        .defaults_to("0").zero_allowed(),
    integer_param("systolic.gemm.block_k", "fixed GEMM block depth; 0 = chosen").at_most(kMaxBlock)
        .defaults_to("0").zero_allowed(),
    quantity_param("systolic.host_dispatch", Dimension::time,
                   "per step: the host's call of one jitted program (Python, PJRT, launch) until it sees "
                   "the result, not overlapped with the device (a synchronous call, as timeit measures)")
        .defaults_to("0 s").zero_allowed(),
    quantity_param("systolic.op_overhead", Dimension::time, "per fused op: dispatch, DMA set-up, final sync")
        .defaults_to("1 us").zero_allowed(),
    quantity_param("systolic.step_overhead", Dimension::time,
                   "per pipeline step: loop iteration, DMA issue, semaphore wait").defaults_to("0.35 us")
        .zero_allowed(),
    choice_param("systolic.attention", {"materialized", "fused"},
                 "materialized: XLA without a custom kernel (scores to HBM, softmax pass, P·V); fused: "
                 "flash-style kernel, scores stay in VMEM").defaults_to("materialized"),
    quantity_param("power.mxu_energy_per_flop", Dimension::energy, "energy of one MXU FLOP")
        .defaults_to("0 J").zero_allowed(),
    quantity_param("power.vpu_energy_per_flop", Dimension::energy, "energy of one vector-unit op")
        .defaults_to("0 J").zero_allowed(),
    quantity_param("power.vmem_energy_per_byte", Dimension::energy, "energy of one byte read or written in VMEM")
        .defaults_to("0 J").zero_allowed(),
});

Dataflow parse_dataflow(const std::string& s) {
  return s == "os" ? Dataflow::os : s == "is" ? Dataflow::is : Dataflow::ws;
}

Orientation parse_orientation(const std::string& s) {
  return s == "as_given" ? Orientation::as_given : s == "transposed" ? Orientation::transposed : Orientation::automatic;
}

}  // namespace

std::string_view dataflow_name(Dataflow d) {
  switch (d) {
    case Dataflow::ws: return "ws";
    case Dataflow::os: return "os";
    case Dataflow::is: return "is";
  }
  return "?";
}

double SystolicChip::hbm_seconds(double ifmap_bytes, double filter_bytes, double ofmap_bytes) const {
  double t = (ifmap_bytes + filter_bytes + ofmap_bytes) / usable_hbm_bandwidth();
  if (ifmap_bandwidth > 0) t = std::max(t, ifmap_bytes / ifmap_bandwidth);
  if (filter_bandwidth > 0) t = std::max(t, filter_bytes / filter_bandwidth);
  if (ofmap_bandwidth > 0) t = std::max(t, ofmap_bytes / ofmap_bandwidth);
  return t;
}

SystolicChip SystolicChip::from_config(const Config& c) {
  SystolicChip s;
  s.name = c.text("name");
  s.tensorcores = int(c.whole("systolic.tensorcores"));
  s.clock_hz = c.number("systolic.clock");
  s.mxus = int(c.whole("systolic.mxu.count"));
  s.rows = int(c.whole("systolic.mxu.rows"));
  s.cols = int(c.whole("systolic.mxu.cols"));
  s.dataflow = parse_dataflow(c.text("systolic.mxu.dataflow"));
  s.preload = c.text("systolic.mxu.preload") == "serial" ? Preload::serial : Preload::overlapped;
  s.os_drain = c.text("systolic.mxu.os_drain") == "overlapped" ? OsDrain::overlapped : OsDrain::exposed;
  s.orientation = parse_orientation(c.text("systolic.mxu.orientation"));
  for (DType t : {DType::fp32, DType::tf32, DType::bf16, DType::fp16, DType::fp8, DType::int8, DType::fp6, DType::fp4})
    s.macs_per_cell[std::size_t(t)] = c.number("systolic.mxu.macs_per_cell." + std::string(dtype_name(t)));
  s.mxu_efficiency = c.number("systolic.mxu.efficiency");
  s.vpu_lanes = int(c.whole("systolic.vpu.lanes"));
  s.vpu_sublanes = int(c.whole("systolic.vpu.sublanes"));
  s.vpu_alus = int(c.whole("systolic.vpu.alus"));
  s.softmax_ops = c.number("systolic.vpu.softmax_ops");
  s.dequant_ops = c.number("systolic.vpu.dequant_ops");
  s.vmem_bytes = c.number("memory.vmem.size");
  s.vmem_bandwidth = c.number("memory.vmem.bandwidth");
  s.hbm_bytes = c.number("memory.hbm.size");
  s.hbm_bandwidth = c.number("memory.hbm.bandwidth");
  s.hbm_latency = c.number("memory.hbm.latency");
  s.hbm_efficiency = c.number("memory.hbm.efficiency");
  s.ifmap_vmem = c.number("memory.vmem.ifmap_size");
  s.filter_vmem = c.number("memory.vmem.filter_size");
  s.ofmap_vmem = c.number("memory.vmem.ofmap_size");
  s.ifmap_bandwidth = c.number("memory.hbm.ifmap_bandwidth");
  s.filter_bandwidth = c.number("memory.hbm.filter_bandwidth");
  s.ofmap_bandwidth = c.number("memory.hbm.ofmap_bandwidth");
  s.block_m = c.whole("systolic.gemm.block_m");
  s.block_n = c.whole("systolic.gemm.block_n");
  s.block_k = c.whole("systolic.gemm.block_k");
  s.host_dispatch = c.number("systolic.host_dispatch");
  s.op_overhead = c.number("systolic.op_overhead");
  s.step_overhead = c.number("systolic.step_overhead");
  s.attention = c.text("systolic.attention") == "fused" ? AttentionMode::fused : AttentionMode::materialized;
  s.tdp_watts = c.number("power.tdp");
  s.idle_watts = c.number("power.idle");
  s.mxu_joules_per_flop = c.number("power.mxu_energy_per_flop");
  s.vpu_joules_per_flop = c.number("power.vpu_energy_per_flop");
  s.vmem_joules_per_byte = c.number("power.vmem_energy_per_byte");
  s.hbm_joules_per_byte = c.number("power.hbm_energy_per_byte");
  return s;
}

}  // namespace hwsim
