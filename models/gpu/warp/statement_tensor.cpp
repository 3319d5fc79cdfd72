// The matrix and asynchronous-copy instructions of the statement parser (statement_parser.h):
// mma.sync, wgmma (mma_async, fence, commit_group, wait_group), ldmatrix and cp.async with its
// groups, as nvcc, clang and Triton write them for Ampere and Hopper. Each refuses a form it cannot
// run with one line naming what is supported.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <fmt/format.h>

#include "models/gpu/warp/statement_parser.h"
#include "sim/error.h"

namespace hwsim::warp {
namespace {

std::optional<MmaElem> mma_elem(const std::string& s) {
  if (s == "f16") return MmaElem::f16;
  if (s == "bf16") return MmaElem::bf16;
  if (s == "tf32") return MmaElem::tf32;
  if (s == "s8") return MmaElem::s8;
  if (s == "u8") return MmaElem::u8;
  return std::nullopt;
}

bool is_mma_type(const std::string& s) {
  for (const char* t : {"f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s32", "s4", "u4", "b1", "e4m3", "e5m2",
                        "e3m2", "e2m3", "e2m1"})
    if (s == t) return true;
  return false;
}

// "m16n8k16" into m, n, k; false if `s` is not a shape.
bool read_shape(const std::string& s, MmaShape& sh) {
  int m = 0, n = 0, k = 0;
  if (std::sscanf(s.c_str(), "m%dn%dk%d", &m, &n, &k) != 3) return false;
  sh.m = std::uint16_t(m), sh.n = std::uint16_t(n), sh.k = std::uint16_t(k);
  return true;
}

// A mnemonic's (`parts`, the opcode first) first shape part into `sh` (`shaped`: one was found) and
// its element-type parts in order (D, A, B, C as PTX writes them).
std::vector<std::string> shape_and_types(const std::vector<std::string>& parts, MmaShape& sh, bool& shaped) {
  std::vector<std::string> types;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (!shaped && read_shape(parts[i], sh)) shaped = true;
    else if (is_mma_type(parts[i])) types.push_back(parts[i]);
  }
  return types;
}

constexpr const char* kMmaForms =
    "mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32, m16n8k8 .f32.tf32.tf32.f32 or "
    ".f32.f16.f16.f32, m16n8k32 .s32.{s8,u8}.{s8,u8}.s32";

}  // namespace

void StatementParser::mma(const std::vector<Token>& t, const Mnemonic& m, Instr& in) {
  // mma[.sync.aligned].SHAPE[.row.col].DTYPE.ATYPE.BTYPE.CTYPE (.hwk: mma.m16n8k16.f32.f16)
  MmaShape sh;
  bool shaped = false;
  std::vector<std::string> types = shape_and_types(m.parts, sh, shaped);
  if (types.size() == 2) types = {types[0], types[1], types[1], types[0]};
  const std::string form = fmt::format("'{}' is not supported (supported: {})", t[0].text, kMmaForms);
  if (!shaped || types.size() != 4 || m.has("sp") || m.has("block_scale")) fail(t[0], form);
  auto a = mma_elem(types[1]), b = mma_elem(types[2]);
  if (!a || !b) fail(t[0], form);
  sh.a = *a, sh.b = *b;
  sh.int_acc = types[0] == "s32";
  const bool ints = (sh.a == MmaElem::s8 || sh.a == MmaElem::u8) && (sh.b == MmaElem::s8 || sh.b == MmaElem::u8);
  const bool halves = (sh.a == MmaElem::f16 || sh.a == MmaElem::bf16) && sh.a == sh.b;
  bool ok = false;
  if (sh.m == 16 && sh.n == 8 && sh.k == 16) ok = halves && types[0] == "f32" && types[3] == "f32";
  if (sh.m == 16 && sh.n == 8 && sh.k == 8)
    ok = types[0] == "f32" && types[3] == "f32" && ((sh.a == MmaElem::tf32 && sh.b == MmaElem::tf32) || (sh.a == MmaElem::f16 && sh.b == MmaElem::f16));
  if (sh.m == 16 && sh.n == 8 && sh.k == 32) ok = ints && types[0] == "s32" && types[3] == "s32";
  if (!ok) fail(t[0], form);
  in.op = Op::mma;
  in.pipe = Pipe::tensor;
  in.type = sh.int_acc ? Type::s32 : Type::f32;
  in.mma = sh;
  expect_count(t, 4, "mma.sync.aligned.SHAPE.row.col.D.A.B.C {D..}, {A..}, {B..}, {C..}");
  const std::size_t na = std::size_t(sh.m * sh.k * mma_elem_bits(sh.a) / 1024);
  const std::size_t nb = std::size_t(sh.k * sh.n * mma_elem_bits(sh.b) / 1024);
  auto d = vector_regs(t[1]), av = vector_regs(t[2]), bv = vector_regs(t[3]), c = vector_regs(t[4]);
  if (d.size() != 4 || av.size() != na || bv.size() != nb || c.size() != 4)
    fail(t[1], fmt::format("{} wants 4 D, {} A, {} B and 4 C registers", m.parts[0] + "." + std::to_string(sh.m) + "x" +
                                                                          std::to_string(sh.n) + "x" + std::to_string(sh.k), na, nb));
  for (auto& r : d) in.dst.push_back(dst_reg(r, in.type, true));
  for (auto& r : av) in.src.push_back(source(r, Type::u32, true));
  for (auto& r : bv) in.src.push_back(source(r, Type::u32, true));
  for (auto& r : c) in.src.push_back(source(r, in.type, true));
}

void StatementParser::wgmma(const std::vector<Token>& t, const Mnemonic& m, Instr& in) {
  in.pipe = Pipe::ctrl;
  if (m.has("fence")) { in.op = Op::wgmma_fence; return; }
  if (m.has("commit_group")) { in.op = Op::wgmma_commit; return; }
  if (m.has("wait_group")) {
    in.op = Op::wgmma_wait;
    expect_count(t, 1, "wgmma.wait_group.sync.aligned N");
    in.wait_groups = std::uint8_t(std::clamp(std::atoi(t[1].text.c_str()), 0, 255));
    return;
  }
  const std::string form = fmt::format(
      "'{}' is not supported (supported: wgmma.mma_async.sync.aligned.m64nNk16.f32.{{f16,bf16}}.{{f16,bf16}}, N a "
      "multiple of 8 up to 256, A from a descriptor or registers, B from a descriptor)", t[0].text);
  if (!m.has("mma_async") || m.has("sp")) fail(t[0], form);
  MmaShape sh;
  bool shaped = false;
  std::vector<std::string> types = shape_and_types(m.parts, sh, shaped);
  if (!shaped || sh.m != 64 || sh.k != 16 || sh.n % 8 || sh.n < 8 || sh.n > 256 || types.size() != 3 ||
      types[0] != "f32" || types[1] != types[2] || !(types[1] == "f16" || types[1] == "bf16"))
    fail(t[0], form);
  sh.a = sh.b = *mma_elem(types[1]);
  in.op = Op::wgmma;
  in.pipe = Pipe::tensor;
  in.type = Type::f32;
  sh.a_regs = t.size() > 2 && t[2].text.front() == '{';
  const std::size_t imms = sh.a_regs ? 3 : 4;  // scale-a, scale-b[, trans-a], trans-b
  if (t.size() != 5 + imms) fail(t[0], fmt::format("expected `{} {{D..}}, {}, DESC_B, SCALE_D, {}`", t[0].text,
                                                  sh.a_regs ? "{A0..A3}" : "DESC_A", sh.a_regs ? "1, 1, TRANS_B" : "1, 1, TRANS_A, TRANS_B"));
  auto d = vector_regs(t[1]);
  if (d.size() != std::size_t(sh.n / 2)) fail(t[1], fmt::format("m64n{}k16 with f32 accumulators wants {} D registers", sh.n, sh.n / 2));
  auto imm = [&](std::size_t i) { return std::atoi(t[i].text.c_str()); };
  sh.neg_a = imm(5) == -1, sh.neg_b = imm(6) == -1;
  sh.trans_a = !sh.a_regs && imm(7) == 1;
  sh.trans_b = imm(sh.a_regs ? 7 : 8) == 1;
  in.mma = sh;
  for (auto& r : d) in.dst.push_back(dst_reg(r, Type::f32, true));
  if (sh.a_regs) {
    auto a = vector_regs(t[2]);
    if (a.size() != 4) fail(t[2], "wgmma with A in registers wants 4 A registers");
    for (auto& r : a) in.src.push_back(source(r, Type::u32, true));
  } else {
    in.src.push_back(source(t[2], Type::u64, true));
  }
  in.src.push_back(source(t[3], Type::u64, true));
  in.src.push_back(source(t[4], Type::pred));
  for (auto& r : d) in.src.push_back(source(r, Type::f32, true));  // the accumulators are read too
}

void StatementParser::ldmatrix(const std::vector<Token>& t, const Mnemonic& m, Instr& in) {
  // ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared{::cta}.b16 {D..}, [ADDR]
  if (!m.has("m8n8") || !m.has("b16"))
    fail(t[0], fmt::format("'{}' is not supported (supported: ldmatrix.sync.aligned.m8n8.x1/.x2/.x4[.trans].shared.b16)", t[0].text));
  in.op = Op::ldmatrix;
  in.vec = m.has("x4") ? 4 : m.has("x2") ? 2 : 1;
  in.trans = m.has("trans");
  in.space = Space::shared;
  in.type = Type::u32;
  in.pipe = Pipe::lsu;
  expect_count(t, 2, "ldmatrix.sync.aligned.m8n8.xN.shared.b16 {D..}, [ADDR]");
  auto d = vector_regs(t[1]);
  if (int(d.size()) != in.vec) fail(t[1], fmt::format("ldmatrix .x{} wants {} registers", int(in.vec), int(in.vec)));
  for (auto& r : d) in.dst.push_back(dst_reg(r, Type::u32, true));
  address(t[2], in, true);
}

void StatementParser::async_copy(const std::vector<Token>& t, const Mnemonic& m, Instr& in) {
  in.pipe = Pipe::ctrl;
  if (m.has("commit_group")) { in.op = Op::cp_commit; return; }
  if (m.has("wait_all")) { in.op = Op::cp_wait; in.wait_groups = 0; return; }
  if (m.has("wait_group")) {
    in.op = Op::cp_wait;
    expect_count(t, 1, "cp.async.wait_group N");
    in.wait_groups = std::uint8_t(std::clamp(std::atoi(t[1].text.c_str()), 0, 255));
    return;
  }
  // cp.async.{ca,cg}.shared{::cta}.global[.L2::128B] [DST], [SRC], CP_SIZE[, SRC_SIZE]
  if (!(m.has("ca") || m.has("cg")) || m.has("L2::cache_hint") || m.has("mbarrier"))
    fail(t[0], fmt::format("'{}' is not supported (supported: cp.async.ca/.cg.shared.global [DST], [SRC], 4|8|16[, "
                           "SRC_SIZE], cp.async.commit_group, cp.async.wait_group N, cp.async.wait_all)", t[0].text));
  in.op = Op::cp_async;
  in.pipe = Pipe::lsu;
  in.space = Space::global;
  in.type = Type::u32;
  in.l2_only = m.has("cg");
  if (t.size() != 4 && t.size() != 5) fail(t[0], "expected `cp.async.cg.shared.global [DST], [SRC], CP_SIZE[, SRC_SIZE]`");
  const long size = std::strtol(t[3].text.c_str(), nullptr, 0);
  if (size != 4 && size != 8 && size != 16) fail(t[3], "cp.async copies 4, 8 or 16 bytes");
  if (in.l2_only && size != 16) fail(t[3], "cp.async.cg copies 16 bytes");
  in.vec = std::uint8_t(size);
  address(t[2], in, false);  // the global source: src[0] for now
  in.offset2 = in.offset;
  in.offset = 0;
  address(t[1], in, true);   // the shared destination: src[0], the source now src[1]
  if (t.size() == 5) in.src.push_back(source(t[4], Type::u32));
}

}  // namespace hwsim::warp
