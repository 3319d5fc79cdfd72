#include "models/gpu/warp/register_estimate.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace hwsim::warp {
namespace {

using Bits = std::vector<std::uint64_t>;

void set(Bits& b, int r) { b[std::size_t(r) / 64] |= std::uint64_t(1) << (r % 64); }

// Successors of instruction i (n = the exit).
int successors(const Program& p, int i, int out[2]) {
  const Instr& in = p.code[std::size_t(i)];
  const int n = int(p.code.size());
  int count = 0;
  if (in.op == Op::bra) out[count++] = std::min(in.target, n);
  if (in.op == Op::exit && in.guard < 0) return count;
  if (in.op != Op::bra || in.guard >= 0) out[count++] = std::min(i + 1, n);
  return count;
}

}  // namespace

namespace {

struct Liveness {
  std::vector<Bits> use, def, out;
};

Liveness liveness(const Program& p) {
  const int n = int(p.code.size()), regs = int(p.regs.size()), words = (regs + 63) / 64;
  const Bits empty(static_cast<std::size_t>(words), 0);
  Liveness l;
  l.use.assign(static_cast<std::size_t>(n), empty);
  l.def.assign(static_cast<std::size_t>(n), empty);
  for (int i = 0; i < n; ++i) {
    const Instr& in = p.code[std::size_t(i)];
    for (const auto& s : in.src)
      if (s.kind == Operand::k_reg) set(l.use[std::size_t(i)], s.reg);
    if (in.guard >= 0) set(l.use[std::size_t(i)], in.guard);
    for (auto d : in.dst) {
      if (in.guard >= 0) set(l.use[std::size_t(i)], d);  // a predicated write keeps the old value alive
      else set(l.def[std::size_t(i)], d);
    }
  }
  std::vector<Bits> live_in(static_cast<std::size_t>(n) + 1, empty);
  l.out.assign(static_cast<std::size_t>(n), empty);
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = n - 1; i >= 0; --i) {
      Bits out = empty;
      int s[2];
      for (int k = 0, c = successors(p, i, s); k < c; ++k)
        for (int w = 0; w < words; ++w) out[std::size_t(w)] |= live_in[std::size_t(s[k])][std::size_t(w)];
      Bits in = empty;
      for (int w = 0; w < words; ++w)
        in[std::size_t(w)] = l.use[std::size_t(i)][std::size_t(w)] | (out[std::size_t(w)] & ~l.def[std::size_t(i)][std::size_t(w)]);
      if (in != live_in[std::size_t(i)]) live_in[std::size_t(i)] = std::move(in), changed = true;
      l.out[std::size_t(i)] = std::move(out);
    }
  }
  return l;
}

}  // namespace

std::vector<std::vector<std::uint64_t>> live_after(const Program& p) { return liveness(p).out; }

int estimate_live_registers(const Program& p) {
  const int n = int(p.code.size()), regs = int(p.regs.size()), words = (regs + 63) / 64;
  std::vector<int> weight(std::size_t(regs), 0);
  for (int r = 0; r < regs; ++r) {
    const Type t = p.regs[std::size_t(r)].type;
    weight[std::size_t(r)] = t == Type::pred ? 0 : type_bytes(t) == 8 ? 2 : 1;
  }
  const Liveness l = liveness(p);
  int most = 0;
  for (int i = 0; i < n; ++i) {
    int count = 0;
    for (int w = 0; w < words; ++w) {
      std::uint64_t b = l.out[std::size_t(i)][std::size_t(w)] | l.def[std::size_t(i)][std::size_t(w)] | l.use[std::size_t(i)][std::size_t(w)];
      for (; b; b &= b - 1) count += weight[std::size_t(w * 64 + __builtin_ctzll(b))];
    }
    most = std::max(most, count);
  }
  if (p.maxnreg > 0) most = std::min(most, p.maxnreg);
  return std::max(most, 1);
}

}  // namespace hwsim::warp
