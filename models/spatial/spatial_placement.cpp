#include "models/spatial/spatial_placement.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "ops/conv.h"
#include "sim/error.h"
#include "sim/units.h"

namespace hwsim {
namespace {

// The SRAM-resident ops: laid in order at byte offsets over the deployment's SRAM (pipeline: chip
// after chip; tensor: each chip holds 1/chips of every op).
void place_resident(OpPlacement& p, double& offset, const SpatialChip& chip) {
  double chip_sram = chip.sram_bytes();
  if (chip.parallel == ChipParallel::tensor) {
    p.first_chip = 0;
    p.chips = chip.chips;
    p.cores = std::min(chip.chips * chip.cores(), std::max(chip.chips, std::ceil(p.weight_bytes / chip.sram_per_core)));
    return;
  }
  double first = std::floor(offset / chip_sram), last = std::floor((offset + p.weight_bytes) / chip_sram);
  if (last > first && (offset + p.weight_bytes) == last * chip_sram) last -= 1;  // ends exactly at a chip's edge
  p.first_chip = first;
  p.chips = last - first + 1;
  p.cores = std::min(p.chips * chip.cores(), std::max(1.0, std::ceil(p.weight_bytes / chip.sram_per_core)));
  offset += p.weight_bytes;
}

// The streamed ops: pipeline, each chip streams an equal share of them in execution order on all its
// cores; tensor, every chip streams 1/chips of each.
void place_streamed(OpPlacement& p, double& streamed_offset, double streamed_total, const SpatialChip& chip) {
  if (chip.parallel == ChipParallel::tensor) {
    p.first_chip = 0;
    p.chips = chip.chips;
  } else {
    double share = streamed_total / chip.chips;
    p.first_chip = std::min(chip.chips - 1, std::floor(streamed_offset / share));
    p.chips = 1;
    streamed_offset += p.weight_bytes;
  }
  p.cores = p.chips * chip.cores();
}

// An op without weights (a norm, attention, an activation): where the activations are, on the cores of
// the op before it (on the chip it ended on); the first op of a step on every core of the first chip
// (tensor: of every chip).
void place_unweighted(OpPlacement& p, const OpPlacement* previous, const SpatialChip& chip) {
  bool tensor = chip.parallel == ChipParallel::tensor;
  p.first_chip = tensor || !previous ? 0 : previous->first_chip + previous->chips - 1;
  p.chips = tensor ? chip.chips : 1;
  double per_chip = previous ? previous->cores / previous->chips : chip.cores();
  p.cores = p.chips * std::min(chip.cores(), per_chip);
}

}  // namespace

double op_weight_bytes(const Op& op, const SpatialChip& chip) {
  GemmOp g;
  if (const auto* gemm = std::get_if<GemmOp>(&op.shape)) g = *gemm;
  else if (const auto* conv = std::get_if<ConvOp>(&op.shape)) g = conv_as_gemm(*conv);  // the filters
  else return 0;
  return double(g.n) * double(g.k) * double(g.groups) * chip.weight_bytes_per_element(g.b);
}

double chips_to_hold(double bytes, const SpatialChip& chip) {
  return std::max(1.0, std::ceil(bytes / chip.main_memory_bytes()));
}

std::string chips_advice(double bytes, const SpatialChip& chip) {
  double each = chip.main_memory_bytes(), count = chips_to_hold(bytes, chip);
  std::string memory = chip.has_dram() ? "DRAM" : "SRAM";
  if (count > SpatialChip::kMaxChips)
    return fmt::format("{} chips of {} {} would hold it, more than spatial.chips allows ({}): give each chip more {} "
                       "({})", count, format_quantity(each, Dimension::bytes), memory, SpatialChip::kMaxChips, memory,
                       chip.has_dram() ? "spatial.dram.size" : "spatial.core.sram");
  return fmt::format("{} chips of {} {} hold it ({} given): --set spatial.chips={}", count,
                     format_quantity(each, Dimension::bytes), memory, chip.chips, count);
}

StepPlacement place_step(const OpGraph& graph, const std::vector<OpVertex>& order, const SpatialChip& chip) {
  StepPlacement s;
  s.ops.resize(order.size());
  double capacity = chip.chips * chip.sram_bytes(), total = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {  // first pass: resident where they fit, in order
    OpPlacement& p = s.ops[i];
    p.weight_bytes = op_weight_bytes(graph[order[i]], chip);
    total += p.weight_bytes;
    p.resident = p.weight_bytes > 0 && s.resident_bytes + p.weight_bytes <= capacity;
    (p.resident ? s.resident_bytes : s.streamed_bytes) += p.weight_bytes;
  }
  if (s.streamed_bytes > 0 && !chip.has_dram())
    workload_error(fmt::format("{}: the step's weights ({}) do not fit the SRAM of {} chip(s) ({}) and the chip has no "
                               "DRAM to stream them from: {}", chip.name, format_quantity(total, Dimension::bytes),
                               chip.chips, format_quantity(capacity, Dimension::bytes), chips_advice(total, chip)));
  double offset = 0, streamed_offset = 0;
  for (std::size_t i = 0; i < s.ops.size(); ++i) {  // second pass: cores and chips
    OpPlacement& p = s.ops[i];
    if (p.weight_bytes <= 0) place_unweighted(p, i > 0 ? &s.ops[i - 1] : nullptr, chip);
    else if (p.resident) place_resident(p, offset, chip);
    else place_streamed(p, streamed_offset, s.streamed_bytes, chip);
  }
  return s;
}

}  // namespace hwsim
