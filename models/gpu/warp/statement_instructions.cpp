// The instruction families of the statement parser (statement_parser.h): PTX's grammar, of which
// .hwk is a subset. Modifiers that change no value the warp model computes (rounding of f32
// arithmetic, .ftz, .approx, cache and memory-order qualifiers, .uni, .sync, .aligned) are accepted
// and ignored; each family refuses forms it cannot run with one line.
#include <cstdlib>
#include <fmt/format.h>

#include "models/gpu/warp/statement_parser.h"
#include "sim/error.h"

namespace hwsim::warp {

std::string supported_instructions() {
  return "mov add sub mul mad fma div rem min max neg abs copysign, shl shr and or xor not popc clz brev bfe bfi "
         "prmt shf lop3, setp selp slct, cvt cvta, ex2 lg2 rcp sqrt rsqrt sin cos tanh, ld st (global shared "
         "generic param local), atom red, shfl vote activemask, bar membar fence, bra call ret exit, "
         "cp.async (commit_group wait_group wait_all), ldmatrix, mma.sync (m16n8k16 f16/bf16, m16n8k8 tf32/f16, "
         "m16n8k32 s8/u8), wgmma (fence commit_group wait_group mma_async m64nNk16 f16/bf16)";
}

namespace {
// "[NAME]" or "[NAME+0]" (nvcc writes the offset) into NAME; other offsets are structs by value.
std::string param_name(const std::string& a) {
  std::string name = a.substr(1, a.size() - 2);
  if (auto plus = name.find('+'); plus != std::string::npos && std::strtoll(name.c_str() + plus + 1, nullptr, 0) == 0)
    name.resize(plus);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  return name;
}
int arity(Op op) {
  switch (op) {
    case Op::mov: case Op::neg: case Op::abs: case Op::not_: case Op::ex2: case Op::lg2: case Op::rcp:
    case Op::sqrt: case Op::rsqrt: case Op::sin: case Op::cos: case Op::tanh: return 1;
    case Op::mad: case Op::fma: case Op::selp: return 3;
    default: return 2;
  }
}
bool sfu_op(Op op) {
  return op == Op::ex2 || op == Op::lg2 || op == Op::rcp || op == Op::sqrt || op == Op::rsqrt || op == Op::sin ||
         op == Op::cos || op == Op::tanh;
}
}  // namespace

bool StatementParser::arithmetic(const std::vector<Token>& t, const Mnemonic& m, Instr& in) {
  static const std::map<std::string, Op> arith = {
      {"mov", Op::mov}, {"add", Op::add}, {"sub", Op::sub}, {"mul", Op::mul}, {"mad", Op::mad},
      {"fma", Op::fma}, {"div", Op::div}, {"rem", Op::rem}, {"min", Op::min}, {"max", Op::max},
      {"neg", Op::neg}, {"abs", Op::abs}, {"shl", Op::shl}, {"shr", Op::shr}, {"and", Op::and_},
      {"or", Op::or_}, {"xor", Op::xor_}, {"not", Op::not_}, {"ex2", Op::ex2}, {"lg2", Op::lg2},
      {"rcp", Op::rcp}, {"sqrt", Op::sqrt}, {"rsqrt", Op::rsqrt}, {"selp", Op::selp}, {"sin", Op::sin},
      {"cos", Op::cos}, {"tanh", Op::tanh}, {"copysign", Op::copysign}, {"cvta", Op::mov}};
  auto it = arith.find(m.parts[0]);
  if (it == arith.end()) return false;
  in.op = it->second;
  in.type = last_type(m, Type::u32);
  const bool cvta = m.parts[0] == "cvta";
  if (cvta && (m.has("const") || m.has("param")))
    fail(t[0], "cvta of the const or param space is not supported (global, shared, local)");
  const bool cvta_local = cvta && m.has("local");
  if (m.has("hi")) {
    if (in.op != Op::mul) fail(t[0], "only mul takes .hi (mad.hi is not supported)");
    in.op = Op::mulhi;
  }
  if (m.has("cc") || m.parts[0] == "addc" || m.parts[0] == "subc") fail(t[0], "extended-precision arithmetic (.cc) is not supported");
  if (m.has("sat")) in.sat = true;
  if (in.type == Type::pred && in.op != Op::mov && in.op != Op::and_ && in.op != Op::or_ && in.op != Op::xor_ &&
      in.op != Op::not_ && in.op != Op::selp)
    fail(t[0], std::string(op_name(in.op)) + " does not take .pred");
  if ((in.type == Type::f16x2 || in.type == Type::bf16x2) && in.op != Op::add && in.op != Op::mul && in.op != Op::fma && in.op != Op::mov)
    fail(t[0], "f16x2/bf16x2 support add, mul, fma and mov");
  in.wide = m.has("wide");
  if (in.wide && !(in.op == Op::mul || in.op == Op::mad)) fail(t[0], ".wide is for mul and mad");
  if (in.wide && !(in.type == Type::u32 || in.type == Type::s32 || in.type == Type::u16 || in.type == Type::s16))
    fail(t[0], ".wide takes u16, s16, u32 or s32 sources");
  const bool floating = is_float(in.type);
  if (in.op == Op::mad && floating) in.op = Op::fma;  // PTX's mad.f32 is a fused multiply-add
  if (in.op == Op::fma && !floating && in.type != Type::f16x2 && in.type != Type::bf16x2)
    fail(t[0], "fma is for floats; use mad for integers");
  if ((sfu_op(in.op) || in.op == Op::copysign) && !(in.type == Type::f32 || in.type == Type::f64))
    fail(t[0], std::string(op_name(in.op)) + " takes .f32 or .f64");
  if ((in.op == Op::shl || in.op == Op::shr || in.op == Op::rem || in.op == Op::not_ || in.op == Op::and_ ||
       in.op == Op::or_ || in.op == Op::xor_) && floating)
    fail(t[0], std::string(op_name(in.op)) + " is an integer instruction");
  const int n = arity(in.op);
  expect_count(t, std::size_t(n + 1), fmt::format("{} DST{}", m.parts[0], n == 1 ? ", A" : n == 2 ? ", A, B" : ", A, B, C"));
  const Type dst_t = !in.wide ? in.type
                     : type_bytes(in.type) == 2 ? (in.type == Type::s16 ? Type::s32 : Type::u32)
                                                : (in.type == Type::s32 ? Type::s64 : Type::u64);
  const bool by_size = m.untyped || in.op == Op::mov || cvta;
  in.dst.push_back(dst_reg(t[1], dst_t, by_size));
  for (int k = 0; k < n; ++k) {
    Type want = in.type;
    if (in.op == Op::selp && k == 2) want = Type::pred;
    if (in.op == Op::mad && in.wide && k == 2) want = dst_t;
    if ((in.op == Op::shl || in.op == Op::shr) && k == 1) want = Type::u32;
    in.src.push_back(source(t[std::size_t(2 + k)], want, by_size && !(in.op == Op::selp && k == 2)));
  }
  if (cvta_local) {  // local offsets ↔ generic addresses: the local window's base added or taken off
    in.op = m.has("to") ? Op::sub : Op::add;
    Operand base;
    base.kind = Operand::k_imm;
    base.bits = kLocalWindow;
    in.src.push_back(base);
  }
  if (sfu_op(in.op) || in.op == Op::div || in.op == Op::rem) in.pipe = Pipe::sfu;
  else if (floating || in.type == Type::f16x2 || in.type == Type::bf16x2) in.pipe = Pipe::fp32;
  else in.pipe = Pipe::int_;
  return true;
}

void StatementParser::compare(const std::vector<Token>& t, const Mnemonic& m, Instr& in) {
  static const std::map<std::string, Cmp> cmps = {
      {"eq", Cmp::eq}, {"ne", Cmp::ne}, {"lt", Cmp::lt}, {"le", Cmp::le}, {"gt", Cmp::gt}, {"ge", Cmp::ge},
      {"lo", Cmp::lt}, {"ls", Cmp::le}, {"hi", Cmp::gt}, {"hs", Cmp::ge}, {"equ", Cmp::equ}, {"neu", Cmp::neu},
      {"ltu", Cmp::ltu}, {"leu", Cmp::leu}, {"gtu", Cmp::gtu}, {"geu", Cmp::geu}, {"num", Cmp::num}, {"nan", Cmp::nan}};
  in.op = Op::setp;
  if (m.parts.size() < 3 || !cmps.count(m.parts[1]))
    fail(t[0], "expected setp.CMP.TYPE (CMP: eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan)");
  if (m.has("and") || m.has("or") || m.has("xor")) fail(t[0], "setp with a combining predicate (.and/.or/.xor) is not supported");
  in.cmp = cmps.at(m.parts[1]);
  in.type = need_type(t[0], m.parts.back());
  expect_count(t, 3, "setp.CMP.TYPE P, A, B");
  if (t[1].text.find('|') != std::string::npos) fail(t[1], "setp with a second destination (p|q) is not supported");
  in.dst.push_back(dst_reg(t[1], Type::pred));
  in.src.push_back(source(t[2], in.type, m.untyped));
  in.src.push_back(source(t[3], in.type, m.untyped));
  in.pipe = is_float(in.type) ? Pipe::fp32 : Pipe::int_;
}

void StatementParser::convert(const std::vector<Token>& t, const Mnemonic& m, Instr& in) {
  in.op = Op::cvt;
  std::vector<Type> types;
  for (std::size_t i = 1; i < m.parts.size(); ++i) {
    const std::string& p = m.parts[i];
    if (auto ty = type_of(p)) { types.push_back(*ty); continue; }
    if (p == "rn" || p == "rni") in.round = 0;
    else if (p == "rz" || p == "rzi") in.round = 1;
    else if (p == "rm" || p == "rmi") in.round = 2;
    else if (p == "rp" || p == "rpi") in.round = 3;
    else if (p == "sat") { in.sat = true; continue; }
    else if (p == "ftz" || p == "relu" || p == "satfinite") continue;
    else fail(t[0], "cvt: unknown modifier ." + p);
    in.round_int = p.size() == 3;
  }
  if (types.size() != 2) fail(t[0], "expected cvt[.RND][.sat].DSTTYPE.SRCTYPE");
  in.type = types[0];
  in.src_type = types[1];
  if ((in.type == Type::f16x2 || in.type == Type::bf16x2) && in.src_type == Type::f32) {
    // cvt.rn.{f16x2,bf16x2}.f32 d, a, b: a into the upper half, b into the lower (Triton's epilogues)
    expect_count(t, 3, "cvt.rn.bf16x2.f32 DST, A, B");
    in.dst.push_back(dst_reg(t[1], in.type, true));
    in.src.push_back(source(t[2], Type::f32));
    in.src.push_back(source(t[3], Type::f32));
    in.pipe = Pipe::int_;
    return;
  }
  if (in.type == Type::f16x2 || in.type == Type::bf16x2 || in.src_type == Type::f16x2 || in.src_type == Type::bf16x2)
    fail(t[0], "cvt to or from f16x2/bf16x2 pairs: only cvt.rn.{f16x2,bf16x2}.f32 D, A, B is supported");
  expect_count(t, 2, "cvt.D.S DST, A");
  in.dst.push_back(dst_reg(t[1], in.type));
  in.src.push_back(source(t[2], in.src_type));
  in.pipe = (in.type == Type::f64 || in.src_type == Type::f64) ? Pipe::sfu : Pipe::int_;
}

void StatementParser::param_load(const std::vector<Token>& t, const Mnemonic& m, Instr& in) {
  // ld.param.T d, [NAME]: the parameter's register (PTX kernels), as a mov
  in.op = Op::mov;
  in.type = last_type(m, Type::u32);
  in.pipe = Pipe::int_;
  expect_count(t, 2, "ld.param.TYPE DST, [PARAM]");
  const std::string& a = t[2].text;
  if (a.size() < 3 || a.front() != '[') fail(t[2], "expected [PARAM]");
  std::string name = param_name(a);
  auto it = params_.find(name);
  if (it == params_.end()) {
    if (name.find('+') != std::string::npos) fail(t[2], "parameters passed by value as structs (ld.param at an offset) are not supported");
    fail(t[2], "unknown parameter '" + name + "'");
  }
  in.dst.push_back(dst_reg(t[1], in.type, true));
  Operand o;
  o.kind = Operand::k_reg;
  o.reg = it->second;
  in.src.push_back(o);
}

void StatementParser::param_store(const std::vector<Token>& t, const Mnemonic& m, Instr& in) {
  // st.param.T [NAME(+0)], v: a call's argument or a .func's result, into NAME's register (a mov)
  in.op = Op::mov;
  in.type = last_type(m, Type::u32);
  in.pipe = Pipe::int_;
  expect_count(t, 2, "st.param.TYPE [PARAM], SRC");
  const std::string name = param_name(t[1].text);
  auto it = params_.find(name);
  if (it == params_.end()) fail(t[1], "unknown .param '" + name + "' (declare it with .param)");
  in.dst.push_back(it->second);
  in.src.push_back(source(t[2], prog_.regs[it->second].type, true));
}

void StatementParser::memory(const std::vector<Token>& t, const Mnemonic& m, Instr& in) {
  const std::string& op = m.parts[0];
  in.op = op == "ld" ? Op::ld : Op::st;
  if (m.has("const") || m.has("tex"))
    fail(t[0], op + ": the constant and texture spaces are not supported (global, shared, local, generic)");
  if (m.has("local")) in.space = Space::local;
  else if (m.has("global")) in.space = Space::global;
  else if (m.has("shared") || m.has("shared::cta")) in.space = Space::shared;
  else if (m.has("shared::cluster")) fail(t[0], "distributed shared memory (.shared::cluster) is not supported");
  else in.space = Space::generic;
  if (m.has("v2")) in.vec = 2;
  if (m.has("v4")) in.vec = 4;
  if (m.has("v8")) fail(t[0], ".v8 accesses are not supported");
  in.l2_only = in.op == Op::ld && in.space == Space::global && m.has("cg");
  in.type = last_type(m, Type::u32);
  if (in.type == Type::pred) fail(t[0], "cannot load or store a predicate");
  if (in.vec * type_bytes(in.type) > 16) fail(t[0], "accesses are at most 16 bytes");
  expect_count(t, 2, in.op == Op::ld ? "ld.SPACE[.vN].TYPE DST, [ADDR]" : "st.SPACE[.vN].TYPE [ADDR], SRC");
  const Token& regs_tok = in.op == Op::ld ? t[1] : t[2];
  const Token& addr_tok = in.op == Op::ld ? t[2] : t[1];
  auto regs = vector_regs(regs_tok);
  if (int(regs.size()) != in.vec) fail(regs_tok, fmt::format("expected {} registers", int(in.vec)));
  for (auto& r : regs) {
    if (in.op == Op::ld) in.dst.push_back(dst_reg(r, in.type, m.untyped));
    else in.src.push_back(source(r, in.type, m.untyped));
  }
  address(addr_tok, in, in.space == Space::shared || in.space == Space::local);
  in.pipe = Pipe::lsu;
}

void StatementParser::atomic(const std::vector<Token>& t, const Mnemonic& m, Instr& in, bool reduction) {
  static const std::map<std::string, AtomOp> ops = {
      {"add", AtomOp::add}, {"min", AtomOp::min}, {"max", AtomOp::max}, {"inc", AtomOp::inc}, {"dec", AtomOp::dec},
      {"and", AtomOp::and_}, {"or", AtomOp::or_}, {"xor", AtomOp::xor_}, {"exch", AtomOp::exch}, {"cas", AtomOp::cas}};
  in.op = Op::atom_add;
  bool found = false;
  for (std::size_t i = 1; i < m.parts.size(); ++i)
    if (auto it = ops.find(m.parts[i]); it != ops.end()) in.atom = it->second, found = true;
  if (!found) fail(t[0], "atom/red needs an operation: add min max inc dec and or xor exch cas");
  in.space = m.has("global") ? Space::global : m.has("shared") || m.has("shared::cta") ? Space::shared : Space::generic;
  in.type = last_type(m, Type::u32);
  const bool ok_type = in.type == Type::u32 || in.type == Type::s32 || in.type == Type::u64 || in.type == Type::s64 ||
                       in.type == Type::f32 || (in.type == Type::f64 && in.atom == AtomOp::add);
  if (!ok_type || m.has("v2") || m.has("v4")) fail(t[0], "atom/red take u32 s32 u64 s64 b32 b64 f32 (f64: add)");
  const std::size_t values = in.atom == AtomOp::cas ? 2 : 1;
  const std::size_t addr = reduction ? 1 : 2;
  expect_count(t, addr + values, reduction ? "red.SPACE.OP.TYPE [ADDR], B" : in.atom == AtomOp::cas ? "atom.SPACE.cas.TYPE D, [ADDR], B, C" : "atom.SPACE.OP.TYPE D, [ADDR], B");
  if (!reduction) in.dst.push_back(dst_reg(t[1], in.type, m.untyped));
  for (std::size_t k = 0; k < values; ++k) in.src.push_back(source(t[addr + 1 + k], in.type, m.untyped));
  address(t[addr], in, in.space == Space::shared);
  in.pipe = Pipe::lsu;
}

void StatementParser::shuffle(const std::vector<Token>& t, const Mnemonic& m, Instr& in) {
  in.op = Op::shfl;
  if (m.has("idx")) in.shfl = Shfl::idx;
  else if (m.has("up")) in.shfl = Shfl::up;
  else if (m.has("down")) in.shfl = Shfl::down;
  else if (m.has("bfly")) in.shfl = Shfl::bfly;
  else fail(t[0], "shfl needs a mode: .idx .up .down .bfly");
  in.type = last_type(m, Type::u32);
  if (type_bytes(in.type) != 4 || in.type == Type::pred) fail(t[0], "shfl moves 32-bit values");
  // shfl.MODE.T d, a, b (.hwk) | shfl[.sync].MODE.T d[|p], a, b, c[, membermask]
  if (t.size() < 4 || t.size() > 6) fail(t[0], "expected `shfl.sync.MODE.b32 D[|P], A, B, C, MEMBERMASK`");
  std::string d = t[1].text;
  auto bar = d.find('|');
  in.dst.push_back(dst_reg(Token{d.substr(0, bar), t[1].col}, in.type, true));
  if (bar != std::string::npos) in.dst.push_back(dst_reg(Token{d.substr(bar + 1), t[1].col}, Type::pred));
  in.src.push_back(source(t[2], in.type, true));
  in.src.push_back(source(t[3], Type::u32));
  if (t.size() >= 5) in.src.push_back(source(t[4], Type::u32));
  in.pipe = Pipe::lsu;
}

void StatementParser::vote(const std::vector<Token>& t, const Mnemonic& m, Instr& in) {
  in.op = Op::vote;
  if (m.has("ballot")) in.vote = Vote::ballot;
  else if (m.has("any")) in.vote = Vote::any;
  else if (m.has("all")) in.vote = Vote::all;
  else if (m.has("uni")) in.vote = Vote::uni;
  else fail(t[0], "vote needs a mode: .any .all .uni .ballot");
  if (t.size() < 3 || t.size() > 4) fail(t[0], "expected `vote.sync.MODE.TYPE D, {!}P, MEMBERMASK`");
  in.type = in.vote == Vote::ballot ? Type::u32 : Type::pred;
  in.dst.push_back(dst_reg(t[1], in.type, in.vote == Vote::ballot));
  Token p = t[2];
  if (!p.text.empty() && p.text[0] == '!') in.negate_src = true, p.text.erase(0, 1);
  in.src.push_back(source(p, Type::pred));
  in.pipe = Pipe::int_;
}

bool StatementParser::bits(const std::vector<Token>& t, const Mnemonic& m, Instr& in) {
  static const std::map<std::string, std::pair<Op, int>> ops = {
      {"popc", {Op::popc, 1}}, {"clz", {Op::clz, 1}}, {"brev", {Op::brev, 1}}, {"bfe", {Op::bfe, 3}},
      {"bfi", {Op::bfi, 4}}, {"prmt", {Op::prmt, 3}}, {"shf", {Op::shf, 3}}, {"slct", {Op::slct, 3}},
      {"lop3", {Op::lop3, 4}}, {"activemask", {Op::activemask, 0}}};
  auto it = ops.find(m.parts[0]);
  if (it == ops.end()) return false;
  in.op = it->second.first;
  const int n = it->second.second;
  in.pipe = Pipe::int_;
  in.type = last_type(m, Type::u32);
  if (in.op == Op::prmt && m.parts.size() > 2 && !type_of(m.parts.back()))
    fail(t[0], "prmt: only the default mode is supported");
  if (in.op == Op::shf) {
    in.shf_left = m.has("l");
    in.shf_wrap = m.has("wrap");
  }
  if (in.op == Op::slct) {  // slct.DTYPE.CTYPE
    if (m.parts.size() < 3) fail(t[0], "expected slct.DTYPE.CTYPE");
    in.type = need_type(t[0], m.parts[m.parts.size() - 2]);
    in.src_type = need_type(t[0], m.parts.back());
  }
  expect_count(t, std::size_t(n + 1), fmt::format("{} D{}", m.parts[0], n == 0 ? "" : n == 1 ? ", A" : n == 3 ? ", A, B, C" : ", A, B, C, D"));
  const Type dst = (in.op == Op::popc || in.op == Op::clz) ? Type::u32 : in.type;
  in.dst.push_back(dst_reg(t[1], dst, true));
  for (int k = 0; k < n; ++k) {
    Type want = in.type;
    if ((in.op == Op::bfe && k > 0) || (in.op == Op::bfi && k > 1) || (in.op == Op::shf && k == 2)) want = Type::u32;
    if (in.op == Op::slct && k == 2) want = in.src_type;
    in.src.push_back(source(t[std::size_t(2 + k)], want, true));
  }
  return true;
}

bool StatementParser::control(const std::vector<Token>& t, const Mnemonic& m, Instr& in) {
  const std::string& op = m.parts[0];
  in.pipe = Pipe::ctrl;
  if (op == "bar" || op == "barrier") {
    in.op = Op::bar;
    if (m.has("warp")) { in.op = Op::nop; return true; }  // bar.warp.sync: the warp is converged already
    if (m.has("arrive") || m.has("red")) fail(t[0], op + "." + m.parts[1] + " is not supported (bar.sync, barrier.sync)");
    if (t.size() > 3 || (t.size() >= 2 && t[1].text != "0")) fail(t[0], "only barrier 0 of the whole block is supported (`bar.sync 0`)");
    return true;
  }
  if (op == "membar" || op == "fence" || op == "prefetch" || op == "prefetchu" || op == "discard" || op == "pmevent") {
    in.op = Op::nop;
    return true;
  }
  if (op == "bra" || op == "brx") {
    if (op == "brx") fail(t[0], "indirect branches (brx.idx) are not supported");
    in.op = Op::bra;
    expect_count(t, 1, "bra LABEL");
    fixups_.emplace_back(int(prog_.code.size()), t[1].text, t[1].col, line_);
    return true;
  }
  if (op == "exit" || op == "ret") {
    in.op = Op::exit;
    return true;
  }
  if (op == "call") fail(t[0], "calls to .func are not supported yet: make the device function inline (__forceinline__)");
  if (op == "trap" || op == "brkpt") fail(t[0], op + " is not supported");
  if (op == "nop") {
    in.op = Op::nop;
    return true;
  }
  return false;
}

}  // namespace hwsim::warp
