#pragma once
// The typed description of a spatial chip (kind "spatial"), built once from a validated Config
// (parameters declared in spatial_chip.cpp with units; values and their sources in the chip files,
// docs/spatial_sources.md). The placement, the lowering and the machine read this struct, never the
// config.
//
// A spatial chip is a grid of cores (`grid_rows` x `grid_cols`: Tenstorrent's Tensix cores,
// GroqChip's superlanes, a Cerebras wafer's processing elements), each with its own SRAM
// (`sram_per_core` bytes read at `sram_bandwidth` bytes/s), a matrix engine (FLOP per cycle per
// dtype) and a vector engine, joined by a network-on-chip (a 2-D mesh or torus of links of
// `noc_link_bandwidth`, `noc_hop_latency` per router). Off-chip DRAM (GDDR6 on Tenstorrent) is
// optional: `dram_bytes` = 0 means none (Groq, Cerebras), and every weight must then sit in SRAM.
// A deployment is `chips` such chips joined by chip-to-chip links (`c2c_*`), the model laid over
// them as a pipeline (layers placed chip after chip: Groq, Cerebras) or split tensor-parallel
// (every weighted op over every chip, its output all-reduced: Tenstorrent's n300 and T3K).
#include <array>
#include <string>

#include "ops/dtype.h"

namespace hwsim {

class Config;

enum class ChipParallel { pipeline, tensor };

struct SpatialChip {
  // The most chips a deployment may have (spatial.chips' bound): far above any shipped deployment
  // (Groq's 576-chip racks), keeping products of chips and cores inside doubles' exact integers.
  static constexpr double kMaxChips = 1 << 16;

  std::string name;
  double chips = 1;                       // chips of the deployment (a card's ASICs, a rack's chips)
  bool fit_chips = false;                // spatial.fit_chips: as many chips as the workload needs, at least `chips`
  ChipParallel parallel = ChipParallel::pipeline;
  double grid_rows = 1, grid_cols = 1;    // cores per chip = rows x cols
  bool torus = false;                     // the NoC wraps around (else a 2-D mesh)
  double clock_hz = 0;
  std::array<double, kDTypeCount> matrix_flops{};  // per core per cycle; 0 = the dtype is not native
  double vector_flops = 0;                // per core per cycle (elementwise, softmax, norms)
  double tile_rows = 1;                   // rows the matrix engine processes at once: M is padded up to it
  double matrix_efficiency = 1, vector_efficiency = 1;
  double sram_per_core = 0, sram_bandwidth = 0;   // bytes; bytes/s per core
  double noc_link_bandwidth = 0, noc_hop_latency = 0, noc_count = 1;
  double dram_bytes = 0, dram_bandwidth = 0, dram_efficiency = 1, dram_latency = 0;  // per chip
  double c2c_bandwidth = 0, c2c_latency = 0;  // per chip to its neighbour, one direction; per hop
  double block_size = 16, block_exponent_bytes = 0;  // block floats: int8/int4 weights carry a shared exponent
  double op_overhead = 0;                 // seconds per op: dispatch and the compiled schedule's synchronisation
  double idle_watts = 0, active_watts = 0, tdp_watts = 0;  // per chip
  double dram_joules_per_byte = 0;

  static SpatialChip from_config(const Config& config);

  double cores() const { return grid_rows * grid_cols; }
  double sram_bytes() const { return cores() * sram_per_core; }  // one chip
  bool has_dram() const { return dram_bytes > 0; }
  // One chip's main memory: its DRAM where it has any, else its SRAM.
  double main_memory_bytes() const { return has_dram() ? dram_bytes : sram_bytes(); }
  // The dtype the matrix engine multiplies `a` x `b` in: a weight-only format (b narrower) at its own
  // rate where native (Tenstorrent's bfp4/bfp8 set the LoFi fidelity), else a's, else bf16.
  DType math_dtype(DType a, DType b) const;
  // FLOP/s of one core's matrix engine in dtype t (at the math dtype's rate), before efficiency.
  double core_matrix_rate(DType t) const { return matrix_flops[std::size_t(t)] * clock_hz; }
  double core_vector_rate() const { return vector_flops * clock_hz; }
  // Bytes per weight as stored: int8/int4 as block floats (one shared exponent per block_size), the
  // rest their dtype's bytes.
  double weight_bytes_per_element(DType t) const;
};

}  // namespace hwsim
