#pragma once
// The warp model's instruction set: what a parsed .hwk kernel is made of. A Program is immutable
// after parsing; execution state lives elsewhere (warp_state.h). Every register holds 64 raw bits
// per lane; its declared type says how instructions read them. Documentation: kernel_language.md.
#include <cstdint>
#include <string>
#include <vector>

namespace hwsim::warp {

enum class Type : std::uint8_t { u32, s32, f32, u64, s64, f16x2, bf16x2, pred };
const char* type_name(Type t);
inline int type_bytes(Type t) { return (t == Type::u64 || t == Type::s64) ? 8 : 4; }

enum class Op : std::uint8_t {
  mov, add, sub, mul, mad, fma, div, rem, min, max, neg, abs, shl, shr, and_, or_, xor_, not_,
  setp, selp, cvt, ex2, lg2, rcp, sqrt, rsqrt,
  ld, st, atom_add, shfl, bar, bra, exit, mma, nop,
};
const char* op_name(Op op);

// Execution pipelines, each with a latency and an initiation interval (warp_params.h).
enum class Pipe : std::uint8_t { fp32, int_, sfu, tensor, lsu, ctrl };
inline constexpr int kPipes = 6;
const char* pipe_name(Pipe p);

enum class Space : std::uint8_t { none, global, shared };
enum class Cmp : std::uint8_t { eq, ne, lt, le, gt, ge };
enum class Shfl : std::uint8_t { idx, up, down, bfly };

// Special registers, read-only, per lane.
enum class Special : std::uint8_t { tid, ntid, ctaid, nctaid, laneid, warpid, clock };

struct Operand {
  enum Kind : std::uint8_t { k_none, k_reg, k_special, k_imm } kind = k_none;
  std::uint16_t reg = 0;        // register index (kind == reg)
  Special special = Special::tid;
  std::uint64_t bits = 0;       // immediate, already encoded in the instruction's type
};

struct Instr {
  Op op = Op::nop;
  Type type = Type::u32;        // operand type (destination type for cvt)
  Type src_type = Type::u32;    // cvt: source type
  Pipe pipe = Pipe::int_;
  Space space = Space::none;
  Cmp cmp = Cmp::eq;
  Shfl shfl = Shfl::idx;
  std::uint8_t vec = 1;         // ld/st: registers moved (1, 2, 4): access width = vec × 4 or 8 bytes
  bool wide = false;            // mul/mad .wide: 32-bit sources, 64-bit result
  bool l2_only = false;         // ld.global.cg: PTX cache operator "cache at global level": cached in L2, not in L1
  std::int16_t guard = -1;      // predicate register, -1 = always
  bool guard_negated = false;
  std::vector<std::uint16_t> dst;   // destination registers (vector loads: several)
  std::vector<Operand> src;         // sources; ld/st: src[0] is the address base
  std::int64_t offset = 0;      // ld/st/atom: [base + offset]
  int target = -1;              // bra: instruction index
  int reconverge = -1;          // bra: immediate post-dominator (instruction index; size() = exit)
  int line = 0, column = 0;     // source position
  std::string text;             // the source line, trimmed, for reports
};

struct RegDecl {
  std::string name;
  Type type;
};

// A kernel parameter: a global buffer (its register holds the base address) or a scalar.
struct KernelParam {
  std::string name;
  bool buffer = false;
  Type type = Type::u32;        // element type (buffer) or value type (scalar)
  std::string default_spec;     // as on the command line after NAME= ("" = must be given)
  std::uint16_t reg = 0;
};

struct SharedDecl {
  std::string name;
  Type type = Type::f32;
  std::uint64_t bytes = 0;
  std::uint64_t offset = 0;     // within the CTA's shared memory
  std::uint16_t reg = 0;
};

struct Program {
  std::string file;
  std::string name;             // .kernel NAME
  std::vector<RegDecl> regs;
  std::vector<KernelParam> params;
  std::vector<SharedDecl> shared;
  std::uint64_t shared_bytes = 0;
  std::vector<Instr> code;
  // 32-bit registers a thread needs (u64 counts 2, predicates are free), for occupancy.
  int registers_per_thread() const;
};

}  // namespace hwsim::warp
