#include "models/gpu/warp/ptxas_lowering.h"

#include <algorithm>
#include <vector>

#include "models/gpu/warp/register_estimate.h"

namespace hwsim::warp {
namespace {

// Integer division or remainder by a register, 32 bits: I2F.U32.RP, MUFU.RCP, IADD3, F2I, then
// ten IMAD/ISETP/IADD3 steps and a LOP3 for the zero divisor; its chain runs through the two
// conversions and the reciprocal (about 30 cycles) and ten dependent integer steps of 4.
constexpr SassSequence kDivide32{17, 60};
constexpr SassSequence kDivideSigned32{21, 70};  // the same on magnitudes, and the sign fixed up
// 64 bits: a called subroutine of about 70 instructions.
constexpr SassSequence kDivide64{70, 250};
// IEEE f32 division (div.rn.f32, what a/b is without fast math): MUFU.RCP, four FFMAs of
// Newton refinement and the range check; reciprocal and square root likewise.
constexpr SassSequence kDivideF32{9, 30};
constexpr SassSequence kReciprocalF32{6, 20};
constexpr SassSequence kSqrtF32{7, 25};
// f64 division: MUFU.RCP64H and a refinement of eight DFMAs.
constexpr SassSequence kDivideF64{12, 60};

bool folds_immediate(const Instr& in) {
  return (in.pipe == Pipe::fp32 || in.pipe == Pipe::int_) && in.op != Op::cvt && in.op != Op::mma && in.space == Space::none &&
         in.op != Op::vote;
}

bool constant_mov(const Instr& in) {
  return in.op == Op::mov && in.guard < 0 && in.src.size() == 1 && in.src[0].kind == Operand::k_imm && in.dst.size() == 1 &&
         in.type != Type::pred;
}

// Within each basic block, an ALU source whose value a constant mov of the block set becomes that
// immediate (one immediate per instruction, as SASS allows).
void fold_immediates(Program& p, const std::vector<char>& leader) {
  std::vector<int> known(p.regs.size(), -1);  // register → the constant mov that set it in this block
  for (std::size_t i = 0; i < p.code.size(); ++i) {
    if (leader[i]) std::fill(known.begin(), known.end(), -1);
    Instr& in = p.code[i];
    if (folds_immediate(in)) {
      bool has_imm = std::any_of(in.src.begin(), in.src.end(), [](const Operand& o) { return o.kind == Operand::k_imm; });
      for (auto& s : in.src)
        if (!has_imm && s.kind == Operand::k_reg && known[s.reg] >= 0) {
          const Instr& m = p.code[std::size_t(known[s.reg])];
          if (type_bytes(m.type) != type_bytes(in.type) && !in.wide) continue;
          s = m.src[0];
          has_imm = true;
        }
    }
    for (auto d : in.dst) known[d] = -1;
    if (constant_mov(in)) known[in.dst[0]] = int(i);
  }
}

// Removes constant movs whose register nothing reads any more; branch targets follow.
void drop_dead_movs(Program& p) {
  const auto live = live_after(p);
  const std::size_t n = p.code.size();
  std::vector<int> new_index(n + 1, 0);
  std::vector<Instr> kept;
  for (std::size_t i = 0; i < n; ++i) {
    new_index[i] = int(kept.size());
    const Instr& in = p.code[i];
    const bool dead = constant_mov(in) && !(live[i][in.dst[0] / 64] >> (in.dst[0] % 64) & 1);
    if (!dead) kept.push_back(in);
  }
  new_index[n] = int(kept.size());
  for (auto& in : kept)
    if (in.op == Op::bra) in.target = new_index[std::size_t(std::clamp(in.target, 0, int(n)))];
  p.code = std::move(kept);
}

}  // namespace

SassSequence sass_sequence(const Instr& in) {
  const bool reg_divisor = in.src.size() > 1 && in.src[1].kind == Operand::k_reg;
  if ((in.op == Op::div || in.op == Op::rem) && is_integer(in.type)) {
    if (!reg_divisor) return {};  // by a constant: ptxas multiplies by its inverse, as PTX mostly does already
    if (type_bytes(in.type) == 8) return kDivide64;
    return is_signed(in.type) ? kDivideSigned32 : kDivide32;
  }
  const bool approx = in.text.find(".approx") != std::string::npos || in.text.find(".full") != std::string::npos;
  if (in.op == Op::div && in.type == Type::f32 && !approx) return kDivideF32;
  if (in.op == Op::div && in.type == Type::f64) return kDivideF64;
  if (in.op == Op::rcp && in.type == Type::f32 && !approx) return kReciprocalF32;
  if (in.op == Op::sqrt && in.type == Type::f32 && !approx) return kSqrtF32;
  return {};
}

void lower_like_ptxas(Program& p) {
  const std::size_t n = p.code.size();
  std::vector<char> leader(n + 1, 0);
  leader[0] = 1;
  for (std::size_t i = 0; i < n; ++i) {
    const Instr& in = p.code[i];
    if (in.op == Op::bra && in.target >= 0 && std::size_t(in.target) <= n) leader[std::size_t(in.target)] = 1;
    if (in.op == Op::bra || in.op == Op::exit) leader[i + 1] = 1;
  }
  fold_immediates(p, leader);
  drop_dead_movs(p);
  for (auto& in : p.code) {
    const SassSequence s = sass_sequence(in);
    in.sass_count = std::uint8_t(s.instructions);
    in.sass_latency = std::int16_t(s.chain);
  }
}

}  // namespace hwsim::warp
