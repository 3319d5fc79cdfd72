// Registers, operands and the instruction dispatch of the statement parser (statement_parser.h);
// the instruction families are in statement_instructions.cpp.
#include "models/gpu/warp/statement_parser.h"

#include <bit>
#include <cctype>
#include <cstring>
#include <fmt/format.h>

#include "models/gpu/warp/parser.h"
#include "sim/error.h"
#include "sim/input_file.h"

namespace hwsim::warp {

std::vector<Token> tokenize(const std::string& s, const std::string& file, int line) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace((unsigned char)c) || c == ',' || c == ';') { ++i; continue; }
    Token t;
    t.col = int(i) + 1;
    if (c == '[' || c == '{') {
      char close = c == '[' ? ']' : '}';
      std::size_t j = s.find(close, i);
      if (j == std::string::npos) workload_error(fmt::format("{}:{}:{}: missing '{}'", file, line, t.col, close));
      t.text = s.substr(i, j - i + 1);
      i = j + 1;
    } else {
      std::size_t j = i;
      while (j < s.size() && !std::isspace((unsigned char)s[j]) && s[j] != ',' && s[j] != ';') ++j;
      t.text = s.substr(i, j - i);
      i = j;
    }
    out.push_back(t);
  }
  return out;
}

void StatementParser::fail(int line, int col, const std::string& what) const {
  workload_error(fmt::format("{}:{}:{}: {}", prog_.file, line, col, what));
}

bool StatementParser::Mnemonic::has(const char* mod) const {
  for (std::size_t i = 1; i < parts.size(); ++i)
    if (parts[i] == mod) return true;
  return false;
}

std::optional<Type> StatementParser::type_of(const std::string& s) const { return ptx_type(s); }

std::optional<Type> ptx_type(const std::string& s) {
  static const std::map<std::string, Type> types = {
      {"u32", Type::u32}, {"b32", Type::u32}, {"s32", Type::s32}, {"f32", Type::f32}, {"u64", Type::u64},
      {"b64", Type::u64}, {"s64", Type::s64}, {"f16x2", Type::f16x2}, {"bf16x2", Type::bf16x2}, {"pred", Type::pred},
      {"u8", Type::u8}, {"b8", Type::u8}, {"s8", Type::s8}, {"u16", Type::u16}, {"b16", Type::u16},
      {"s16", Type::s16}, {"f16", Type::f16}, {"bf16", Type::bf16}, {"f64", Type::f64}};
  auto it = types.find(s);
  if (it == types.end()) return std::nullopt;
  return it->second;
}

Type StatementParser::need_type(const Token& t, const std::string& s) const {
  auto ty = type_of(s);
  if (!ty) fail(t, "unknown type '" + s + "' (u8 s8 u16 s16 u32 s32 u64 s64 b8 b16 b32 b64 f16 bf16 f32 f64 f16x2 bf16x2 pred)");
  return *ty;
}

std::uint16_t StatementParser::add_reg(const Token& t, const std::string& name, Type type) {
  if (name.empty() || !(std::isalpha((unsigned char)name[0]) || name[0] == '_' || name[0] == '$'))
    fail(t, "bad register name '" + name + "'");
  if (reg_index_.count(name)) fail(t, "register '" + name + "' declared twice");
  for (const char* sp : {"tid", "ntid", "ctaid", "nctaid", "laneid", "warpid", "clock"})
    if (name == sp) fail(t, "'" + name + "' is a special register (%" + name + "); pick another register name");
  if (prog_.regs.size() >= 60000) fail(t, "too many registers");
  reg_index_[name] = int(prog_.regs.size());
  prog_.regs.push_back({name, type});
  return std::uint16_t(prog_.regs.size() - 1);
}

void StatementParser::declare_regs(const Token& t, std::string n, Type ty, bool allow_redeclare) {
  if (!n.empty() && n[0] == '%') n.erase(0, 1);
  auto one = [&](const std::string& name) {
    auto it = reg_index_.find(name);
    if (allow_redeclare && it != reg_index_.end() && prog_.regs[std::size_t(it->second)].type == ty) return;
    add_reg(t, name, ty);
  };
  auto lt = n.find('<');
  if (lt == std::string::npos) return one(n);
  long count = std::atol(n.c_str() + lt + 1);
  if (count <= 0 || n.back() != '>') fail(t, "expected NAME<COUNT>");
  if (count > 60000) fail(t, "too many registers");
  for (long k = 0; k < count; ++k) one(n.substr(0, lt) + std::to_string(k));
}

int StatementParser::reg_of(const Token& t, std::string name) const {
  if (!name.empty() && name[0] == '%') name.erase(0, 1);
  auto it = reg_index_.find(name);
  if (it == reg_index_.end()) fail(t, "unknown register '%" + name + "' (declare it with .reg)");
  return it->second;
}

namespace {
bool int_like(Type a) { return a == Type::u32 || a == Type::s32; }
bool wide_like(Type a) { return a == Type::u64 || a == Type::s64; }
bool compatible(Type reg, Type want) {
  if (reg == want) return true;
  // PTX's .bN registers (read as the unsigned types) hold any value of their size
  if ((reg == Type::u16 || reg == Type::u32 || reg == Type::u64) && want != Type::pred && type_bytes(reg) == type_bytes(want)) return true;
  if (int_like(reg) && int_like(want)) return true;
  if (wide_like(reg) && wide_like(want)) return true;
  if (is_integer(reg) && is_integer(want) && type_bytes(reg) <= 2 && type_bytes(want) <= 2) return true;
  // PTX's ld/cvt read narrow integers into 16- and 32-bit registers
  if (is_integer(want) && type_bytes(want) < 4 && is_integer(reg) && type_bytes(reg) <= 4) return true;
  return false;
}
// .bN instructions (and mov) move bits: a register of the same size serves.
int reg_size(Type t) { return t == Type::pred ? 0 : type_bytes(t); }
}  // namespace

void StatementParser::check_reg(const Token& t, int r, Type want, bool by_size) const {
  Type have = prog_.regs[std::size_t(r)].type;
  if (by_size && reg_size(have) == reg_size(want)) return;
  if (!compatible(have, want))
    fail(t, fmt::format("register '%{}' is {} but the instruction wants {}", prog_.regs[std::size_t(r)].name,
                        type_name(have), type_name(want)));
}

std::uint16_t StatementParser::dst_reg(const Token& t, Type want, bool by_size) {
  int r = reg_of(t, t.text);
  check_reg(t, r, want, by_size);
  return std::uint16_t(r);
}

Operand StatementParser::special(const Token& t, const std::string& name, Type want) const {
  static const std::map<std::string, Special> specials = {
      {"tid", Special::tid}, {"ntid", Special::ntid}, {"ctaid", Special::ctaid}, {"nctaid", Special::nctaid},
      {"laneid", Special::laneid}, {"warpid", Special::warpid}, {"clock", Special::clock},
      {"clock64", Special::clock}, {"lanemask_lt", Special::lanemask_lt}, {"lanemask_le", Special::lanemask_le},
      {"lanemask_eq", Special::lanemask_eq}, {"lanemask_ge", Special::lanemask_ge}, {"lanemask_gt", Special::lanemask_gt}};
  Operand o;
  std::string base = name;
  std::uint8_t dim = 0;
  if (base.size() > 2 && base[base.size() - 2] == '.') {
    const char c = base.back();
    if (c != 'x' && c != 'y' && c != 'z') fail(t, "special register %" + name + ": the component is .x, .y or .z");
    dim = std::uint8_t(c - 'x');
    base.resize(base.size() - 2);
  }
  auto sp = specials.find(base);
  if (sp == specials.end()) { o.kind = Operand::k_none; return o; }
  if (!int_like(want) && !wide_like(want)) fail(t, "special register %" + base + " is u32");
  o.kind = Operand::k_special;
  o.special = sp->second;
  o.dim = dim;
  return o;
}

Operand StatementParser::immediate(const Token& t, Type want) const {
  Operand o;
  o.kind = Operand::k_imm;
  const std::string& s = t.text;
  char* end = nullptr;
  // PTX's exact float literals: 0fXXXXXXXX (f32 bits), 0dXXXXXXXXXXXXXXXX (f64 bits)
  if (s.size() == 10 && (s[1] == 'f' || s[1] == 'F') && s[0] == '0') {
    std::uint32_t b = std::uint32_t(std::strtoul(s.c_str() + 2, &end, 16));
    if (*end) fail(t, "bad f32 literal '" + s + "'");
    o.bits = want == Type::f64 ? std::bit_cast<std::uint64_t>(double(std::bit_cast<float>(b))) : b;
    return o;
  }
  if (s.size() == 18 && (s[1] == 'd' || s[1] == 'D') && s[0] == '0') {
    std::uint64_t b = std::strtoull(s.c_str() + 2, &end, 16);
    if (*end) fail(t, "bad f64 literal '" + s + "'");
    o.bits = want == Type::f32 ? std::bit_cast<std::uint32_t>(float(std::bit_cast<double>(b))) : b;
    return o;
  }
  if (want == Type::pred) {
    if (s == "0" || s == "1" || s == "-1") { o.bits = s != "0"; return o; }  // Triton writes mov.pred %p, -1
    fail(t, "expected a predicate register, got '" + s + "'");
  }
  if (is_float(want)) {
    double d = std::strtod(s.c_str(), &end);
    if (*end) fail(t, fmt::format("bad {} immediate '{}'", type_name(want), s));
    if (want == Type::f32) o.bits = std::bit_cast<std::uint32_t>(float(d));
    else if (want == Type::f64) o.bits = std::bit_cast<std::uint64_t>(d);
    else fail(t, fmt::format("{} immediates are written as bits (0x3c00), with a .b16 instruction", type_name(want)));
    return o;
  }
  long long v = std::strtoll(s.c_str(), &end, 0);
  if (*end || s.empty()) {
    unsigned long long u = std::strtoull(s.c_str(), &end, 0);  // 0xffffffffffffffff
    if (*end || s.empty() || s[0] == '-') fail(t, "'" + s + "' is neither a declared register nor an integer");
    v = (long long)u;
  }
  o.bits = std::uint64_t(v);
  if (type_bytes(want) < 8) o.bits &= 0xffffffffull;
  return o;
}

Operand StatementParser::source(const Token& t, Type want, bool by_size) {
  const std::string& s = t.text;
  if (s.empty()) fail(t, "empty operand");
  if (auto it = symbols_.find(s); it != symbols_.end()) {
    Operand o;
    o.kind = Operand::k_imm;
    o.bits = it->second;
    return o;
  }
  if (s[0] != '%' && reg_index_.count(s)) {  // registers may be written without the %
    Operand o;
    o.kind = Operand::k_reg;
    o.reg = std::uint16_t(reg_of(t, s));
    check_reg(t, o.reg, want, by_size);
    return o;
  }
  if (s[0] == '%') {
    Operand o = special(t, s.substr(1), want);
    if (o.kind == Operand::k_special) return o;
    o.kind = Operand::k_reg;
    o.reg = std::uint16_t(reg_of(t, s));
    check_reg(t, o.reg, want, by_size);
    return o;
  }
  return immediate(t, want);
}

void StatementParser::address(const Token& t, Instr& in, bool any_int) {
  const std::string& s = t.text;
  if (s.size() < 3 || s.front() != '[') fail(t, "expected an address [%reg+offset]");
  std::string body = s.substr(1, s.size() - 2);
  std::size_t op = body.find_first_of("+-", 1);
  std::string base = body.substr(0, op);
  while (!base.empty() && std::isspace((unsigned char)base.back())) base.pop_back();
  while (!base.empty() && std::isspace((unsigned char)base.front())) base.erase(0, 1);
  Token bt{base, t.col + 1};
  Operand o;
  if (!base.empty() && std::isdigit((unsigned char)base[0])) o = immediate(bt, Type::u64);  // [0x100]
  else if (symbols_.count(base)) o = source(bt, Type::u64);                                  // [shared_array+8]
  else {
    o.kind = Operand::k_reg;
    o.reg = std::uint16_t(reg_of(bt, base));
    Type have = prog_.regs[o.reg].type;
    if (any_int ? !(int_like(have) || wide_like(have)) : !wide_like(have))
      fail(bt, fmt::format("address register '%{}' is {}: an address is {}", prog_.regs[o.reg].name, type_name(have),
                           any_int ? "a u32 or u64 register" : "a u64 register"));
  }
  in.src.insert(in.src.begin(), o);
  if (op != std::string::npos) {
    char* end = nullptr;
    long long off = std::strtoll(body.c_str() + op + 1, &end, 0);
    while (*end && std::isspace((unsigned char)*end)) ++end;
    if (*end) fail(t, "bad address offset in '" + s + "'");
    in.offset = body[op] == '-' ? -off : off;
  }
}

std::vector<Token> StatementParser::vector_regs(const Token& t) {
  if (t.text.front() != '{') return {t};
  std::string body = t.text.substr(1, t.text.size() - 2);
  auto inner = tokenize(body, prog_.file, line_);
  for (auto& x : inner) x.col += t.col;
  return inner;
}

void StatementParser::expect_count(const std::vector<Token>& t, std::size_t n, const std::string& form) const {
  if (t.size() != n + 1) fail(t[0], fmt::format("expected `{}`", form));
}

Type StatementParser::last_type(const Mnemonic& m, Type dflt, bool* untyped) const {
  for (std::size_t i = m.parts.size(); i-- > 1;)
    if (auto ty = type_of(m.parts[i])) {
      if (untyped) *untyped = m.parts[i][0] == 'b' && m.parts[i] != "bf16" && m.parts[i] != "bf16x2";
      return *ty;
    }
  return dflt;
}

void StatementParser::label(const Token& t, const std::string& name) {
  if (labels_.count(name)) fail(t, "label '" + name + "' defined twice");
  labels_[name] = int(prog_.code.size());
}

void StatementParser::instruction(std::vector<Token> t, const std::string& text) {
  Instr in;
  in.line = line_;
  in.column = t[0].col;
  in.text = text;
  if (t[0].text[0] == '@') {
    std::string g = t[0].text.substr(1);
    if (!g.empty() && g[0] == '!') { in.guard_negated = true; g.erase(0, 1); }
    int r = reg_of(t[0], g);
    check_reg(t[0], r, Type::pred);
    in.guard = std::int16_t(r);
    t.erase(t.begin());
    if (t.empty()) fail(line_, in.column, "predicate without an instruction");
  }
  in.column = t[0].col;
  Mnemonic m;
  {
    std::size_t start = 0;
    const std::string& s = t[0].text;
    for (;;) {
      std::size_t d = s.find('.', start);
      m.parts.push_back(s.substr(start, d - start));
      if (d == std::string::npos) break;
      start = d + 1;
    }
  }
  last_type(m, Type::u32, &m.untyped);
  const std::string& op = m.parts[0];
  if (arithmetic(t, m, in) || bits(t, m, in) || control(t, m, in)) {
  } else if (op == "setp") compare(t, m, in);
  else if (op == "cvt") convert(t, m, in);
  else if (op == "ld" && m.has("param")) param_load(t, m, in);
  else if (op == "st" && m.has("param")) param_store(t, m, in);
  else if (op == "ld" || op == "st") memory(t, m, in);
  else if (op == "atom" || op == "red") atomic(t, m, in, op == "red");
  else if (op == "shfl") shuffle(t, m, in);
  else if (op == "vote") vote(t, m, in);
  else if (op == "mma") mma(t, m, in);
  else if (op == "wgmma") wgmma(t, m, in);
  else if (op == "ldmatrix") ldmatrix(t, m, in);
  else if (op == "cp" && m.parts.size() > 1 && m.parts[1] == "async" && !m.has("bulk")) async_copy(t, m, in);
  else if (op == "cp" || op == "stmatrix" || op == "mbarrier" || op == "tcgen05" || op == "setmaxnreg" || op == "elect")
    fail(t[0], "'" + shorten(t[0].text, 60) + "' is not supported by the warp model yet (supported: " + supported_instructions() + ")");
  else
    fail(t[0], "unknown instruction '" + shorten(op, 40) + "' (supported: " + supported_instructions() + ")");
  prog_.code.push_back(std::move(in));
}

void StatementParser::finish() {
  for (auto& [idx, label, col, line] : fixups_) {
    auto it = labels_.find(label);
    if (it == labels_.end()) fail(line, col, "unknown label '" + label + "'");
    prog_.code[std::size_t(idx)].target = it->second;
  }
  if (prog_.code.empty() || prog_.code.back().op != Op::exit || prog_.code.back().guard >= 0) {
    Instr e;
    e.op = Op::exit;
    e.pipe = Pipe::ctrl;
    e.line = line_;
    e.text = "exit (implicit)";
    prog_.code.push_back(e);
  }
  compute_reconvergence(prog_);
}

}  // namespace hwsim::warp
