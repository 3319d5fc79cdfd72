#include "models/mcu/mcu_chip.h"

#include <fmt/format.h>

#include "sim/config/config.h"
#include "sim/config/param.h"
#include "sim/error.h"

namespace hwsim {
namespace {

// Micro-block edges and kernel sizes far above any Ethos-U (2x2x8 micro-blocks, 64x64 kernels);
// they keep products of them inside 64-bit integers.
constexpr double kMaxBlockEdge = 1024, kMaxKernel = 65536;

// Keys of a `kind = "mcu"` chip. Sources of the values are in the chip files (configs/cortex_*).
const ParamRegistration mcu_params({"mcu"}, {
    choice_param("mcu.core", {"m4", "m7", "m33", "m55", "m85"}, "Arm Cortex-M core (its SIMD rates are the keys below)"),
    quantity_param("mcu.clock", Dimension::frequency, "core clock"),
    real_param("mcu.macs_per_cycle.int8", "int8 multiply-adds per core cycle of the SIMD (M4/M7 SMLAD: 2; "
               "M55/M85 Helium VMLADAV.S8, 16 per 128-bit vector in two beats: 8)"),
    real_param("mcu.macs_per_cycle.fp16", "fp16 multiply-adds per core cycle (Helium: 8 lanes / 2 beats = 4); "
               "0 = unsupported").defaults_to("0").zero_allowed(),
    real_param("mcu.macs_per_cycle.fp32", "fp32 multiply-adds per core cycle (FPU VFMA: 1; Helium: 4 lanes / 2 "
               "beats = 2); 0 = unsupported").defaults_to("0").zero_allowed(),
    real_param("mcu.simd_ops_per_cycle", "int8 elementwise operations per core cycle (M4/M7 SADD8: 4; Helium: "
               "16 lanes / 2 beats = 8)"),
    fraction_param("mcu.cmsis_nn.efficiency", "fraction of the SIMD MAC peak CMSIS-NN's conv and fully connected "
                   "kernels sustain (operand unpacking, im2col, requantisation); estimate from their inner loops"),
    fraction_param("mcu.cmsis_nn.depthwise_efficiency", "the same for depthwise convolutions (no reduction over "
                   "channels to amortise loads); estimate"),
    real_param("mcu.cmsis_nn.pointwise_efficiency", "the same for 1x1 stride-1 convolutions (the input is "
                   "already the GEMM operand: no im2col); 0 = mcu.cmsis_nn.efficiency").at_most(1).defaults_to("0").zero_allowed(),
    real_param("mcu.cmsis_nn.fc_efficiency", "the same for fully connected layers at batch 1 (a vector times a "
                   "matrix: every weight is loaded and unpacked for one MAC); 0 = mcu.cmsis_nn.efficiency")
        .at_most(1).defaults_to("0").zero_allowed(),
    real_param("mcu.cmsis_nn.shallow_input_efficiency", "the same for a (non-depthwise) conv whose input has one "
                   "channel per group: kernels that pair channels into SMLAD (or vector lanes) fall back to scalar "
                   "multiply-accumulate; 0 = the conv's own efficiency (an im2col kernel reduces over the kernel "
                   "window instead)").at_most(1).defaults_to("0").zero_allowed(),
    real_param("mcu.cmsis_nn.output_cycles", "core cycles per output element of a conv or fully connected kernel "
               "beyond its MACs: bias, requantisation (arm_nn_requantize's multiply-high and shift), clamp, store")
        .defaults_to("0").zero_allowed(),
    real_param("mcu.cmsis_nn.pixels_per_weight_pass", "output pixels a CMSIS-NN conv kernel computes per pass "
               "over the filters (arm_nn_mat_mult_kernel_s8_s16: 2; the MVE kernel: 4)").defaults_to("2"),
    real_param("mcu.cpu.op_overhead", "core cycles per operator on the CPU: the TFLM interpreter's invoke, "
               "kernel argument set-up; estimate").defaults_to("1000").zero_allowed(),
    quantity_param("mcu.dcache.size", Dimension::bytes, "data cache in front of flash (0: none): a layer's "
                   "weights that fit are read from flash once").defaults_to("0 B").zero_allowed(),
    choice_param("mcu.weights", {"auto", "sram", "flash"}, "where the weights live: auto = SRAM when they fit "
                 "beside the activation arena, else flash (streamed), else external memory").defaults_to("auto"),
    quantity_param("memory.sram.size", Dimension::bytes, "on-chip SRAM for the activation arena (and weights)"),
    quantity_param("memory.sram.bandwidth", Dimension::bandwidth, "SRAM bandwidth"),
    quantity_param("memory.sram.latency", Dimension::time, "SRAM first-access latency").defaults_to("0 s")
        .zero_allowed(),
    quantity_param("memory.flash.size", Dimension::bytes, "on-chip flash (or MRAM) holding the model"),
    quantity_param("memory.flash.bandwidth", Dimension::bandwidth, "flash read bandwidth"),
    quantity_param("memory.flash.latency", Dimension::time, "flash first-access latency").defaults_to("0 s")
        .zero_allowed(),
    real_param("memory.flash.wait_states", "flash wait states at the core clock (the datasheet's table for the "
               "clock and voltage range): each flash read costs that many cycles more than a zero-wait access")
        .defaults_to("0").zero_allowed(),
    quantity_param("memory.flash.word", Dimension::bytes, "bytes one flash read returns (64- or 128-bit flash "
                   "word)").defaults_to("16 B"),
    quantity_param("memory.flash.line", Dimension::bytes, "bytes one core miss on flash-resident weights fetches: "
                   "the data cache's line, or the flash word (or accelerator line) where the core has no data cache")
        .defaults_to("32 B"),
    real_param("memory.flash.miss_overhead", "core cycles a miss to flash costs beyond its wait states (bus "
               "bridge, cache refill); the core stalls for the whole miss").defaults_to("0").zero_allowed(),
    quantity_param("memory.ext.size", Dimension::bytes, "external memory (OSPI flash, SDRAM); 0: none")
        .defaults_to("0 B").zero_allowed(),
    quantity_param("memory.ext.bandwidth", Dimension::bandwidth, "external memory bandwidth").defaults_to("0 B/s")
        .zero_allowed(),
    quantity_param("memory.ext.latency", Dimension::time, "external memory first-access latency").defaults_to("0 s")
        .zero_allowed(),
    real_param("npu.macs_per_cycle", "Ethos-U int8 MACs per NPU cycle (U55: 32, 64, 128, 256; U65: 256, 512); "
               "0 = no NPU").defaults_to("0").zero_allowed(),
    quantity_param("npu.clock", Dimension::frequency, "NPU clock (0: the core clock)").defaults_to("0 Hz")
        .zero_allowed(),
    count_param("npu.ublock.height", "OFM micro-block height (Vela ArchitectureConfig ofm_ublock)")
        .at_most(kMaxBlockEdge).defaults_to("2"),
    count_param("npu.ublock.width", "OFM micro-block width").at_most(kMaxBlockEdge).defaults_to("2"),
    count_param("npu.ublock.depth", "OFM micro-block depth (channels)").at_most(kMaxBlockEdge).defaults_to("8"),
    count_param("npu.ifm_block_depth", "IFM channels one micro-block step consumes (Vela: 4 cycles per micro-block "
                "and kernel element at 256 MACs/cycle = 32 channels)").at_most(kMaxBlockEdge).defaults_to("32"),
    real_param("npu.weight_decode_cycles", "least cycles per kernel step and micro-block depth (Vela cycles_wb = "
               "32 · ublock depth / 8)").defaults_to("32"),
    count_param("npu.depthwise_kernel_step", "kernel elements per step when the kernel, not the channels, feeds the "
                "array: depthwise and part-kernel-first convs (Vela: 4)").at_most(kMaxKernel)
        .defaults_to("4"),
    real_param("npu.output_cycles_per_element", "output stage cycles per OFM element, int8 conv/pool with ReLU "
               "(Vela output_cycles_per_elem)").defaults_to("0.25"),
    real_param("npu.elementwise_cycles_per_element", "cycles per element of a binary elementwise op (Vela: "
               "advanced add)").defaults_to("0.75"),
    real_param("npu.softmax_passes", "elementwise passes Vela's int8 softmax lowering runs per element; estimate")
        .defaults_to("10"),
    count_param("npu.max_stride", "largest conv/pool stride the NPU runs (Vela constraint)").at_most(kMaxKernel)
        .defaults_to("3"),
    count_param("npu.max_kernel", "largest kernel height or width the NPU runs (Vela constraint)")
        .at_most(kMaxKernel).defaults_to("64"),
    bool_param("npu.softmax", "the NPU runs int8 softmax (Vela: supported)").defaults_to("true"),
    real_param("npu.op_overhead", "NPU cycles per operator: command stream, DMA descriptors; estimate")
        .defaults_to("200").zero_allowed(),
    quantity_param("npu.invoke_overhead", Dimension::time, "per inference: the driver starting the NPU, cache "
                   "maintenance, completion interrupt; estimate").defaults_to("10 us").zero_allowed(),
    quantity_param("npu.axi_bandwidth", Dimension::bandwidth, "bytes/s of each NPU AXI port (64-bit: 8 B per NPU "
                   "cycle)").defaults_to("0 B/s").zero_allowed(),
    quantity_param("power.run", Dimension::power, "chip power with the core running (datasheet run current x "
                   "supply)"),
    quantity_param("power.sleep", Dimension::power, "chip power with the core waiting (WFI), clocks on"),
    quantity_param("power.npu_energy_per_mac", Dimension::energy, "NPU energy of one int8 MAC")
        .defaults_to("0 J").zero_allowed(),
    quantity_param("power.sram_energy_per_byte", Dimension::energy, "energy of one byte an NPU moves in SRAM")
        .defaults_to("0 J").zero_allowed(),
    quantity_param("power.flash_energy_per_byte", Dimension::energy, "energy of one byte read from flash")
        .defaults_to("0 J").zero_allowed(),
    quantity_param("power.ext_energy_per_byte", Dimension::energy, "energy of one byte of external memory")
        .defaults_to("0 J").zero_allowed(),
});

// NPU keys given on a chip without an NPU are a mistake (they would be silently ignored).
void reject_orphan_npu_keys(const Config& c) {
  if (c.number("npu.macs_per_cycle") > 0) return;
  for (const ParamDecl& d : ParamCatalog::instance().all()) {
    if (d.key.rfind("npu.", 0) != 0 || d.key == "npu.macs_per_cycle" || !applies_to(d, "mcu")) continue;
    const ParamValue& v = c.value(d.key);
    if (v.origin != "default")
      config_error(fmt::format("{}: {}: {} has no NPU (npu.macs_per_cycle is 0); remove the key or give "
                               "npu.macs_per_cycle (Ethos-U55: 32, 64, 128 or 256)", v.origin, d.key, c.text("name")));
  }
}

McuMemory memory(const Config& c, const std::string& level, const std::string& energy_key) {
  return McuMemory{c.number("memory." + level + ".size"), c.number("memory." + level + ".bandwidth"),
                   c.number("memory." + level + ".latency"), energy_key.empty() ? 0 : c.number(energy_key)};
}

NpuSpec npu_spec(const Config& c, double core_clock) {
  NpuSpec n;
  n.macs_per_cycle = c.number("npu.macs_per_cycle");
  n.clock_hz = c.number("npu.clock") > 0 ? c.number("npu.clock") : core_clock;
  n.ublock_h = int(c.whole("npu.ublock.height"));
  n.ublock_w = int(c.whole("npu.ublock.width"));
  n.ublock_depth = int(c.whole("npu.ublock.depth"));
  n.ifm_block_depth = int(c.whole("npu.ifm_block_depth"));
  n.weight_decode_cycles = c.number("npu.weight_decode_cycles");
  n.depthwise_kernel_step = int(c.whole("npu.depthwise_kernel_step"));
  n.output_cycles_per_element = c.number("npu.output_cycles_per_element");
  n.elementwise_cycles_per_element = c.number("npu.elementwise_cycles_per_element");
  n.softmax_passes = c.number("npu.softmax_passes");
  n.max_stride = int(c.whole("npu.max_stride"));
  n.max_kernel = int(c.whole("npu.max_kernel"));
  n.softmax = c.flag("npu.softmax");
  n.op_overhead_cycles = c.number("npu.op_overhead");
  n.invoke_overhead = c.number("npu.invoke_overhead");
  n.axi_bandwidth = c.number("npu.axi_bandwidth") > 0 ? c.number("npu.axi_bandwidth") : 8.0 * n.clock_hz;
  return n;
}

}  // namespace

McuChip McuChip::from_config(const Config& c) {
  reject_orphan_npu_keys(c);
  McuChip m;
  m.name = c.text("name");
  m.core = c.text("mcu.core");
  m.clock_hz = c.number("mcu.clock");
  m.macs_per_cycle[std::size_t(DType::int8)] = c.number("mcu.macs_per_cycle.int8");
  m.macs_per_cycle[std::size_t(DType::fp16)] = c.number("mcu.macs_per_cycle.fp16");
  m.macs_per_cycle[std::size_t(DType::fp32)] = c.number("mcu.macs_per_cycle.fp32");
  m.simd_ops_per_cycle = c.number("mcu.simd_ops_per_cycle");
  m.cmsis_efficiency = c.number("mcu.cmsis_nn.efficiency");
  m.cmsis_depthwise_efficiency = c.number("mcu.cmsis_nn.depthwise_efficiency");
  m.cmsis_pointwise_efficiency = c.number("mcu.cmsis_nn.pointwise_efficiency") > 0
                                     ? c.number("mcu.cmsis_nn.pointwise_efficiency") : m.cmsis_efficiency;
  m.cmsis_fc_efficiency = c.number("mcu.cmsis_nn.fc_efficiency") > 0 ? c.number("mcu.cmsis_nn.fc_efficiency")
                                                                      : m.cmsis_efficiency;
  m.cmsis_shallow_efficiency = c.number("mcu.cmsis_nn.shallow_input_efficiency");
  m.cmsis_output_cycles = c.number("mcu.cmsis_nn.output_cycles");
  m.pixels_per_weight_pass = c.number("mcu.cmsis_nn.pixels_per_weight_pass");
  m.cpu_op_overhead_cycles = c.number("mcu.cpu.op_overhead");
  m.dcache_bytes = c.number("mcu.dcache.size");
  const std::string& w = c.text("mcu.weights");
  m.weights = w == "sram" ? WeightPolicy::sram : w == "flash" ? WeightPolicy::flash : WeightPolicy::automatic;
  m.sram = memory(c, "sram", "power.sram_energy_per_byte");
  m.flash = memory(c, "flash", "power.flash_energy_per_byte");
  m.ext = memory(c, "ext", "power.ext_energy_per_byte");
  m.flash_fetch = FlashFetch{c.number("memory.flash.wait_states"), c.number("memory.flash.word"),
                             c.number("memory.flash.line"), c.number("memory.flash.miss_overhead")};
  if (m.ext.present() && m.ext.bandwidth <= 0)
    config_error(fmt::format("{}: memory.ext.bandwidth: external memory of {} B needs a bandwidth > 0",
                             c.value("memory.ext.size").origin, m.ext.bytes));
  m.npu = npu_spec(c, m.clock_hz);
  m.run_watts = c.number("power.run");
  m.sleep_watts = c.number("power.sleep");
  m.npu_joules_per_mac = c.number("power.npu_energy_per_mac");
  return m;
}

}  // namespace hwsim
