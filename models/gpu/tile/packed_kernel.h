#pragma once
#include <cstdint>
#include <vector>

#include "models/gpu/kernel.h"

namespace hwsim {

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
};

}  // namespace hwsim
