#include "models/systolic/gemm_lowering.h"

#include <fmt/format.h>

#include "sim/error.h"

namespace hwsim {

DType systolic_math_dtype(const GemmOp& g) { return g.a; }

GemmProblem gemm_problem(const GemmOp& g, const SystolicChip& chip) {
  GemmProblem p;
  p.m = g.m, p.n = g.n, p.k = g.k, p.groups = g.groups;
  p.a_bytes = bytes_per_element(g.a);
  p.b_bytes = bytes_per_element(g.b);
  p.out_bytes = bytes_per_element(g.out);
  p.macs_per_cell = chip.macs_per_cell[std::size_t(systolic_math_dtype(g))];
  p.dequant_b = g.b != g.a;
  return p;
}

GemmBlocking choose_or_fail(const GemmProblem& p, const std::string& op, const SystolicChip& chip) {
  std::optional<GemmBlocking> b = choose_gemm_blocking(p, chip);
  if (!b)
    workload_error(fmt::format("{}: the smallest double-buffered tile needs {:.0f} KiB of VMEM but memory.vmem.size "
                               "of {} is {:.0f} KiB", op, smallest_footprint(p, chip) / 1024, chip.name,
                               chip.vmem_bytes / 1024));
  return *b;
}

Phase lower_gemm_problem(const GemmProblem& p, const std::string& op, const std::string& phase, const SystolicChip& chip) {
  return gemm_phase(p, choose_or_fail(p, op, chip), chip, phase);
}

}  // namespace hwsim
