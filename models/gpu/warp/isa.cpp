#include "models/gpu/warp/isa.h"

#include <algorithm>

namespace hwsim::warp {

const char* type_name(Type t) {
  static const char* names[] = {"u32", "s32", "f32", "u64", "s64", "f16x2", "bf16x2", "pred",
                                "u8",  "s8",  "u16", "s16", "f16", "bf16",  "f64"};
  return names[int(t)];
}

const char* op_name(Op op) {
  static const char* names[] = {"mov", "add", "sub", "mul", "mad", "fma", "div", "rem", "min", "max",
                                "neg", "abs", "shl", "shr", "and", "or", "xor", "not", "setp", "selp",
                                "cvt", "ex2", "lg2", "rcp", "sqrt", "rsqrt", "ld", "st", "atom.add",
                                "shfl", "bar", "bra", "exit", "mma", "nop",
                                "popc", "clz", "brev", "bfe", "bfi", "prmt", "vote", "activemask", "slct",
                                "shf", "sin", "cos", "tanh", "mul.hi", "copysign", "lop3",
                                "cp.async", "cp.async.commit_group", "cp.async.wait_group", "ldmatrix",
                                "wgmma.mma_async", "wgmma.fence", "wgmma.commit_group", "wgmma.wait_group"};
  return names[int(op)];
}

const char* pipe_name(Pipe p) {
  static const char* names[] = {"fp32", "int", "sfu", "tensor", "lsu", "ctrl"};
  return names[int(p)];
}

int Program::registers_per_thread() const {
  if (live_registers > 0) return live_registers;
  int n = 0;
  for (const auto& r : regs) {
    if (r.type == Type::pred) continue;
    n += std::max(1, type_bytes(r.type) / 4);
  }
  return n;
}

}  // namespace hwsim::warp
