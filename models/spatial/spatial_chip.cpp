#include "models/spatial/spatial_chip.h"

#include <fmt/format.h>

#include "sim/config/config.h"
#include "sim/config/param.h"
#include "sim/error.h"

namespace hwsim {
namespace {

// Bounds far above any shipped chip (a wafer's ~950 x 950 cores; the chips' bound is
// SpatialChip::kMaxChips), keeping products inside doubles' exact integers.
constexpr double kMaxGridSide = 4096, kMaxNocs = 16;

// The dtypes a core's matrix engine may name a rate for.
constexpr DType kMatrixDTypes[] = {DType::fp32, DType::bf16, DType::fp16, DType::fp8, DType::int8, DType::int4};

// Keys of a `kind = "spatial"` chip (power.tdp and power.idle, per chip:
// models/memory/main_memory_params.cpp). Sources of the values are in the chip files.
const ParamRegistration spatial_params({"spatial"}, {
    count_param("spatial.chips", "chips of the deployment the model is laid over (a card's ASICs, a rack's "
                "chips); a model their memory cannot hold is refused with the count it needs").at_most(SpatialChip::kMaxChips)
        .defaults_to("1"),
    bool_param("spatial.fit_chips", "deploy over as many chips as the workload needs, as a compiler maps a model "
               "onto the chips it fills (at least spatial.chips): the fewest whose memory holds it, the count the "
               "capacity check's refusal would name").defaults_to("false"),
    choice_param("spatial.chip_parallel", {"pipeline", "tensor"}, "how the model is laid over the chips: "
                 "pipeline (layers chip after chip, activations hop between them: Groq, Cerebras) or tensor "
                 "(every weighted op split over every chip, its output all-reduced: Tenstorrent n300, T3K)")
        .defaults_to("pipeline"),
    count_param("spatial.grid.rows", "rows of the core grid one chip exposes to a model").at_most(kMaxGridSide),
    count_param("spatial.grid.cols", "columns of the core grid (cores per chip = rows x cols)").at_most(kMaxGridSide),
    choice_param("spatial.noc.topology", {"mesh", "torus"}, "the network-on-chip: a 2-D mesh, or a torus "
                 "(wrap-around links halve the farthest distance across the chip)"),
    quantity_param("spatial.clock", Dimension::frequency, "core clock"),
    real_param("spatial.core.matrix_flops.bf16", "matrix-engine FLOP per core per cycle in bf16 (Tensix: the "
               "fidelity the framework runs bf16 in)"),
    real_param("spatial.core.matrix_flops.fp32", "the same in fp32 (0 = not native: runs at the bf16 rate)")
        .defaults_to("0").zero_allowed(),
    real_param("spatial.core.matrix_flops.fp16", "the same in fp16 (0 = not native)").defaults_to("0").zero_allowed(),
    real_param("spatial.core.matrix_flops.fp8", "the same in fp8 (0 = not native)").defaults_to("0").zero_allowed(),
    real_param("spatial.core.matrix_flops.int8", "the same for int8 weights (Tenstorrent: bfp8_b at its fidelity; "
               "0 = not native)").defaults_to("0").zero_allowed(),
    real_param("spatial.core.matrix_flops.int4", "the same for int4 weights (Tenstorrent: bfp4_b at LoFi; 0 = not "
               "native)").defaults_to("0").zero_allowed(),
    real_param("spatial.core.vector_flops", "vector-engine FLOP per core per cycle (elementwise, norms, softmax, "
               "attention on a chip without a matrix path for it)"),
    count_param("spatial.core.tile_rows", "activation rows the matrix engine processes at once: a GEMM's M is "
                "padded up to a multiple (Tensix: 8; a streaming engine: 1)").at_most(kMaxGridSide).defaults_to("1"),
    fraction_param("spatial.matrix.efficiency", "fraction of the matrix engines' peak a GEMM spread over its "
                   "cores sustains (fitted where the chip file says so)"),
    fraction_param("spatial.vector.efficiency", "fraction of the vector engines' peak an elementwise pass "
                   "sustains").defaults_to("0.5"),
    quantity_param("spatial.core.sram", Dimension::bytes, "SRAM per core (weights resident here are read without "
                   "leaving the core)"),
    quantity_param("spatial.core.sram_bandwidth", Dimension::bandwidth, "bytes/s one core reads from its SRAM"),
    quantity_param("spatial.noc.link_bandwidth", Dimension::bandwidth, "bytes/s of one NoC link, one direction"),
    quantity_param("spatial.noc.hop_latency", Dimension::time, "latency of one router-to-router hop"),
    count_param("spatial.noc.count", "independent NoCs (Tensix: two, opposite directions)").at_most(kMaxNocs)
        .defaults_to("1"),
    choice_param("spatial.dram.kind", {"none", "gddr6", "lpddr5", "hbm"}, "off-chip DRAM beside each chip, or "
                 "none (every weight must then sit in SRAM)").defaults_to("none"),
    quantity_param("spatial.dram.size", Dimension::bytes, "DRAM per chip (0: none)").defaults_to("0 B")
        .zero_allowed(),
    quantity_param("spatial.dram.bandwidth", Dimension::bandwidth, "DRAM bytes/s per chip, peak").defaults_to("0 B/s")
        .zero_allowed(),
    fraction_param("spatial.dram.efficiency", "fraction of the DRAM peak a weight stream sustains (fitted where "
                   "the chip file says so)").defaults_to("1"),
    quantity_param("spatial.dram.latency", Dimension::time, "DRAM first-access latency").defaults_to("0 s")
        .zero_allowed(),
    quantity_param("spatial.dram.energy_per_byte", Dimension::energy, "DRAM energy per byte read").defaults_to("0 J")
        .zero_allowed(),
    quantity_param("spatial.c2c.bandwidth", Dimension::bandwidth, "bytes/s from a chip to its neighbour in the "
                   "deployment, one direction (the links between them together)"),
    quantity_param("spatial.c2c.latency", Dimension::time, "latency of one chip-to-chip hop"),
    count_param("spatial.block.size", "weights sharing one exponent in a block-float format (int8/int4 weights)")
        .at_most(kMaxGridSide).defaults_to("16"),
    quantity_param("spatial.block.exponent_bytes", Dimension::bytes, "bytes of a block's shared exponent (0: plain "
                   "int8/int4)").defaults_to("0 B").zero_allowed(),
    quantity_param("spatial.op_overhead", Dimension::time, "per op: dispatch and the compiled schedule's "
                   "synchronisation (fitted where the chip file says so)").defaults_to("0 s").zero_allowed(),
    quantity_param("spatial.power.active", Dimension::power, "power of one chip running an op, beyond its idle"),
});

void read_dram(const Config& c, SpatialChip& m) {
  bool named = c.text("spatial.dram.kind") != "none";
  m.dram_bytes = c.number("spatial.dram.size");
  m.dram_bandwidth = c.number("spatial.dram.bandwidth");
  if (named != (m.dram_bytes > 0 && m.dram_bandwidth > 0))
    config_error(fmt::format("{}: spatial.dram.kind: {} names DRAM '{}' with size {} B and bandwidth {} B/s; give "
                             "spatial.dram.size and spatial.dram.bandwidth with a DRAM kind, or kind \"none\" "
                             "with neither", c.value("spatial.dram.kind").origin, c.text("name"),
                             c.text("spatial.dram.kind"), m.dram_bytes, m.dram_bandwidth));
  if (!named) m.dram_bytes = m.dram_bandwidth = 0;
  m.dram_efficiency = c.number("spatial.dram.efficiency");
  m.dram_latency = c.number("spatial.dram.latency");
  m.dram_joules_per_byte = c.number("spatial.dram.energy_per_byte");
}

void read_cores(const Config& c, SpatialChip& m) {
  m.grid_rows = c.number("spatial.grid.rows");
  m.grid_cols = c.number("spatial.grid.cols");
  m.torus = c.text("spatial.noc.topology") == "torus";
  m.clock_hz = c.number("spatial.clock");
  for (DType t : kMatrixDTypes)
    m.matrix_flops[std::size_t(t)] = c.number(fmt::format("spatial.core.matrix_flops.{}", dtype_name(t)));
  m.vector_flops = c.number("spatial.core.vector_flops");
  m.tile_rows = c.number("spatial.core.tile_rows");
  m.matrix_efficiency = c.number("spatial.matrix.efficiency");
  m.vector_efficiency = c.number("spatial.vector.efficiency");
  m.sram_per_core = c.number("spatial.core.sram");
  m.sram_bandwidth = c.number("spatial.core.sram_bandwidth");
  m.noc_link_bandwidth = c.number("spatial.noc.link_bandwidth");
  m.noc_hop_latency = c.number("spatial.noc.hop_latency");
  m.noc_count = c.number("spatial.noc.count");
}

}  // namespace

DType SpatialChip::math_dtype(DType a, DType b) const {
  if (bytes_per_element(b) < bytes_per_element(a) && matrix_flops[std::size_t(b)] > 0) return b;
  if (matrix_flops[std::size_t(a)] > 0) return a;
  return DType::bf16;
}

double SpatialChip::weight_bytes_per_element(DType t) const {
  if (t == DType::int8 || t == DType::int4) return bytes_per_element(t) + block_exponent_bytes / block_size;
  return bytes_per_element(t);
}

SpatialChip SpatialChip::from_config(const Config& c) {
  SpatialChip m;
  m.name = c.text("name");
  m.chips = c.number("spatial.chips");
  m.fit_chips = c.flag("spatial.fit_chips");
  m.parallel = c.text("spatial.chip_parallel") == "tensor" ? ChipParallel::tensor : ChipParallel::pipeline;
  read_cores(c, m);
  read_dram(c, m);
  m.c2c_bandwidth = c.number("spatial.c2c.bandwidth");
  m.c2c_latency = c.number("spatial.c2c.latency");
  m.block_size = c.number("spatial.block.size");
  m.block_exponent_bytes = c.number("spatial.block.exponent_bytes");
  m.op_overhead = c.number("spatial.op_overhead");
  m.idle_watts = c.number("power.idle");
  m.active_watts = c.number("spatial.power.active");
  m.tdp_watts = c.number("power.tdp");
  double dram_watts = m.dram_joules_per_byte * m.dram_bandwidth;
  if (m.idle_watts + m.active_watts + dram_watts > m.tdp_watts * (1 + 1e-9))
    config_error(fmt::format("{}: spatial.power.active: idle {} W + active {} W + DRAM at peak {:.3g} W exceeds "
                             "power.tdp {} W per chip; give an active power that fits the limit",
                             c.value("spatial.power.active").origin, m.idle_watts, m.active_watts, dram_watts,
                             m.tdp_watts));
  return m;
}

}  // namespace hwsim
