#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/gpu/kernel.h"

namespace hwsim {

struct KernelNames;  // kernel_names.h

// A kernel as the machine runs it: its figures (`kernel`, whose ctas are left empty) and its CTAs
// packed (CtaList's arrays, moved out). A device that keeps lowered kernels to run them again (a
// long generate, every step) holds a few contiguous arrays per kernel.
struct PackedKernel {
  using Cta = CtaList::Cta;
  Kernel kernel;
  std::vector<Cta> ctas;
  std::vector<OperandRead> operands;
  static PackedKernel pack(Kernel kernel);
  // A figure computed from the CTAs once, for kernels run again (kernel_sm_work: the power model's
  // work at `rate`; rate 0: none yet).
  struct WorkMemo {
    double rate = 0, work = 0;
  };
  mutable WorkMemo work_memo;
  // Its tensors renamed and its digest (kernel_names()), computed when first asked.
  mutable std::shared_ptr<const KernelNames> names_memo;
};

// What running a kernel needs of it besides its CTAs, for a kernel that replays a recorded run
// (kernel_replay.h) without being lowered again: its figures, its CTA count and its renamed digest.
struct KernelSummary {
  Kernel kernel;  // its figures (no CTAs)
  std::size_t ctas = 0;
  std::shared_ptr<const KernelNames> names;
  static KernelSummary of(const PackedKernel& p);  // computes p's names (kernel_names.cpp)
};

}  // namespace hwsim
