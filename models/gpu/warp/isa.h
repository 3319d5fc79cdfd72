#pragma once
// The warp model's instruction set: what a parsed .hwk kernel is made of. A Program is immutable
// after parsing; execution state lives elsewhere (warp_state.h). Every register holds 64 raw bits
// per lane; its declared type says how instructions read them. Documentation: kernel_language.md.
#include <cstdint>
#include <string>
#include <vector>

namespace hwsim::warp {

// The first eight are .hwk's; the rest come with PTX (b8/b16/b32/b64 read as the unsigned types).
// A register of a narrow type holds its value zero- or sign-extended to 64 bits as its type says.
enum class Type : std::uint8_t { u32, s32, f32, u64, s64, f16x2, bf16x2, pred, u8, s8, u16, s16, f16, bf16, f64 };
inline constexpr int kTypes = 15;
const char* type_name(Type t);
inline int type_bytes(Type t) {
  switch (t) {
    case Type::u64: case Type::s64: case Type::f64: return 8;
    case Type::u8: case Type::s8: return 1;
    case Type::u16: case Type::s16: case Type::f16: case Type::bf16: return 2;
    default: return 4;
  }
}
inline bool is_float(Type t) { return t == Type::f32 || t == Type::f64 || t == Type::f16 || t == Type::bf16; }
inline bool is_signed(Type t) { return t == Type::s32 || t == Type::s64 || t == Type::s8 || t == Type::s16; }
inline bool is_integer(Type t) { return !is_float(t) && t != Type::pred && t != Type::f16x2 && t != Type::bf16x2; }

enum class Op : std::uint8_t {
  mov, add, sub, mul, mad, fma, div, rem, min, max, neg, abs, shl, shr, and_, or_, xor_, not_,
  setp, selp, cvt, ex2, lg2, rcp, sqrt, rsqrt,
  ld, st, atom_add, shfl, bar, bra, exit, mma, nop,
  // PTX's: bit manipulation, warp votes, the atomic family (`atom` sets Instr::atom), funnel shift,
  // sin/cos/tanh, select by sign, high half of a product, copysign. The atomic family is atom_add
  // with Instr::atom naming the operation (a red has no destination).
  popc, clz, brev, bfe, bfi, prmt, vote, activemask, slct, shf, sin, cos, tanh, mulhi, copysign, lop3,
  // Ampere/Hopper matrix and copy instructions (workloads/kernels/README.md, "Calls, local memory ..."):
  // cp.async (global to shared, asynchronous) and its groups; ldmatrix; wgmma (warpgroup MMA from
  // shared-memory descriptors) and its fence/commit/wait. mma.sync is Op::mma, its shape in Instr::mma.
  cp_async, cp_commit, cp_wait, ldmatrix, wgmma, wgmma_fence, wgmma_commit, wgmma_wait,
};
// atom/red operations (Instr::atom); red is atom without a destination.
enum class AtomOp : std::uint8_t { add, min, max, inc, dec, and_, or_, xor_, exch, cas };
// vote modes (Instr::vote).
enum class Vote : std::uint8_t { any, all, uni, ballot };
const char* op_name(Op op);

// Execution pipelines, each with a latency and an initiation interval (warp_params.h).
enum class Pipe : std::uint8_t { fp32, int_, sfu, tensor, lsu, ctrl };
inline constexpr int kPipes = 6;
const char* pipe_name(Pipe p);

// generic: a PTX address in the generic space, resolved per access (shared addresses lie below
// kSharedWindow, global buffers above it: global_memory.h).
// local: a thread's own frame (PTX .local arrays, __local_depot); generic addresses of the local
// space lie in [kLocalWindow, kSharedWindow) (cvta.local adds kLocalWindow), shared ones below it.
enum class Space : std::uint8_t { none, global, shared, generic, param, local };
inline constexpr std::uint64_t kSharedWindow = 0x01000000;
inline constexpr std::uint64_t kLocalWindow = 0x00800000;
inline constexpr std::uint64_t kLocalFrameMax = kSharedWindow - kLocalWindow;  // bytes of .local per thread
// PTX's lo/ls/hi/hs are lt/le/gt/ge on unsigned types; the u variants are true also when either
// float is NaN; num: neither is NaN; nan: either is.
enum class Cmp : std::uint8_t { eq, ne, lt, le, gt, ge, equ, neu, ltu, leu, gtu, geu, num, nan };
enum class Shfl : std::uint8_t { idx, up, down, bfly };

// Special registers, read-only, per lane.
enum class Special : std::uint8_t {
  tid, ntid, ctaid, nctaid, laneid, warpid, clock, lanemask_lt, lanemask_le, lanemask_eq, lanemask_ge, lanemask_gt
};

// Element types of the matrix instructions: f16, bf16, tf32 (an f32 register, 10 mantissa bits
// used), 8-bit integers.
enum class MmaElem : std::uint8_t { f16, bf16, tf32, s8, u8 };
inline int mma_elem_bits(MmaElem e) { return e == MmaElem::tf32 ? 32 : e == MmaElem::s8 || e == MmaElem::u8 ? 8 : 16; }

// The shape and types of an mma.sync or wgmma.mma_async: D(m x n) = A(m x k) B(k x n) + C. wgmma:
// m = 64 for the warpgroup (each warp its 16 rows), A and B from shared-memory descriptors (or A
// from registers), transposes and scales from its immediates.
struct MmaShape {
  std::uint16_t m = 16, n = 8, k = 16;
  MmaElem a = MmaElem::f16, b = MmaElem::f16;
  bool int_acc = false;          // s32 accumulators (8-bit integer A/B), else f32
  bool a_regs = false;           // wgmma: A in registers, not a descriptor
  bool trans_a = false, trans_b = false;  // wgmma: imm-trans-a/b (MN-major operands)
  bool neg_a = false, neg_b = false;      // wgmma: imm-scale-a/b = -1
  // FMAs of one instruction per warp (wgmma: the warp's quarter of the warpgroup's m).
  double warp_fmas() const { return double(m == 64 ? 16 : m) * n * k; }
};

struct Operand {
  enum Kind : std::uint8_t { k_none, k_reg, k_special, k_imm } kind = k_none;
  std::uint16_t reg = 0;        // register index (kind == reg)
  Special special = Special::tid;
  std::uint8_t dim = 0;         // special registers' component: 0 = .x, 1 = .y, 2 = .z
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
  AtomOp atom = AtomOp::add;    // atom: which operation
  Vote vote = Vote::any;        // vote: which mode
  std::uint8_t round = 0;       // cvt: 0 nearest even (.rn, .rni), 1 toward zero (.rz, .rzi), 2 down (.rm, .rmi), 3 up (.rp, .rpi)
  bool round_int = false;       // cvt: .rni/.rzi/.rmi/.rpi (round to an integral value)
  bool sat = false;             // cvt/add/...: .sat clamps floats to [0, 1]
  bool shf_left = false, shf_wrap = false;  // shf.l / shf.r, .wrap / .clamp
  bool negate_src = false;      // vote: its predicate operand is written !p
  std::uint8_t vec = 1;         // ld/st: registers moved (1, 2, 4): access width = vec × 4 or 8 bytes;
                                // ldmatrix: matrices (1, 2, 4); cp.async: bytes copied (4, 8, 16)
  bool trans = false;           // ldmatrix .trans
  std::uint8_t wait_groups = 0; // cp.async.wait_group / wgmma.wait_group N: groups left pending
  MmaShape mma;                 // mma / wgmma
  bool wide = false;            // mul/mad .wide: 32-bit sources, 64-bit result
  bool l2_only = false;         // ld.global.cg: PTX cache operator "cache at global level": cached in L2, not in L1
  std::int16_t guard = -1;      // predicate register, -1 = always
  bool guard_negated = false;
  std::vector<std::uint16_t> dst;   // destination registers (vector loads: several)
  std::vector<Operand> src;         // sources; ld/st: src[0] is the address base
  std::int64_t offset = 0;      // ld/st/atom: [base + offset]; cp.async: the shared destination's
  std::int64_t offset2 = 0;     // cp.async: the global source's offset (src[1])
  int target = -1;              // bra: instruction index
  int reconverge = -1;          // bra: immediate post-dominator (instruction index; size() = exit)
  std::uint8_t sass_count = 1;  // SASS instructions it stands for (ptxas_lowering.h): issue slots it takes
  std::int16_t sass_latency = 0;  // cycles its SASS sequence adds to its pipe's latency
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
  bool untyped = false;         // PTX: a .u64/.b64 parameter whose C++ type is unknown: a buffer
                                // when its argument names one (TYPE[COUNT]:INIT), else a scalar
  std::uint16_t reg = 0;
};

struct SharedDecl {
  std::string name;
  Type type = Type::f32;
  std::uint64_t bytes = 0;
  std::uint64_t offset = 0;     // within the CTA's shared memory
  std::uint16_t reg = 0;
  bool dynamic = false;         // PTX `.extern .shared NAME[]`: its bytes come from the launch
  bool has_reg = true;          // .hwk: register `reg` holds the offset; PTX: NAME reads as an immediate
};

struct Program {
  std::string file;
  std::string name;             // .kernel NAME
  std::vector<RegDecl> regs;
  std::vector<KernelParam> params;
  std::vector<SharedDecl> shared;
  std::uint64_t shared_bytes = 0;
  std::uint64_t local_bytes = 0;  // PTX .local arrays: each thread's frame
  int reqntid[3] = {0, 0, 0};   // PTX .reqntid (0: none): the block when the launch names none
  int maxntid = 0;              // PTX .maxntid (threads; 0: none)
  int maxnreg = 0;              // PTX .maxnreg (0: none)
  int live_registers = 0;       // PTX: the estimate of register_estimate.h (0: count the declared ones)
  std::vector<Instr> code;
  // 32-bit registers a thread needs (u64 counts 2, predicates are free), for occupancy.
  int registers_per_thread() const;
};

}  // namespace hwsim::warp
