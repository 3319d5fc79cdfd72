// Line-oriented parser of the .hwk kernel language. One statement per line; `//` and `#` start
// comments; a trailing `;` is optional. See workloads/kernels/README.md for the grammar.
#include "models/gpu/warp/parser.h"

#include <bit>
#include <cctype>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "sim/error.h"
#include "sim/input_file.h"

namespace hwsim::warp {
namespace {

struct Token {
  std::string text;
  int col = 0;  // 1-based
};

class Parser {
 public:
  Parser(const std::string& source, const std::string& file) : src_(source) { prog_.file = file; }

  Program run() {
    std::istringstream in(src_);
    std::string line;
    while (std::getline(in, line)) {
      ++line_no_;
      parse_line(line);
    }
    if (prog_.name.empty()) fail(1, 1, "missing `.kernel NAME` line");
    for (auto& [idx, label, col, line] : fixups_) {
      auto it = labels_.find(label);
      if (it == labels_.end()) fail(line, col, "unknown label '" + label + "'");
      prog_.code[idx].target = it->second;
    }
    if (prog_.code.empty() || prog_.code.back().op != Op::exit) {
      Instr e;
      e.op = Op::exit;
      e.pipe = Pipe::ctrl;
      e.line = line_no_;
      e.text = "exit (implicit)";
      prog_.code.push_back(e);
    }
    compute_reconvergence(prog_);
    return std::move(prog_);
  }

 private:
  const std::string& src_;
  Program prog_;
  int line_no_ = 0;
  std::map<std::string, int> reg_index_;
  std::map<std::string, int> labels_;
  std::vector<std::tuple<int, std::string, int, int>> fixups_;  // instr, label, col, line

  [[noreturn]] void fail(int line, int col, const std::string& what) const {
    workload_error(fmt::format("{}:{}:{}: {}", prog_.file, line, col, what));
  }
  [[noreturn]] void fail(const Token& t, const std::string& what) const { fail(line_no_, t.col, what); }

  // Splits on whitespace and commas; keeps [..] and {..} groups as one token each.
  std::vector<Token> tokenize(const std::string& s) {
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
        if (j == std::string::npos) fail(line_no_, t.col, std::string("missing '") + close + "'");
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

  static std::vector<std::string> split_dots(const std::string& s) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
      std::size_t d = s.find('.', start);
      parts.push_back(s.substr(start, d - start));
      if (d == std::string::npos) break;
      start = d + 1;
    }
    return parts;
  }

  std::optional<Type> type_of(const std::string& s) const {
    if (s == "u32" || s == "b32") return Type::u32;
    if (s == "s32") return Type::s32;
    if (s == "f32") return Type::f32;
    if (s == "u64" || s == "b64") return Type::u64;
    if (s == "s64") return Type::s64;
    if (s == "f16x2") return Type::f16x2;
    if (s == "bf16x2") return Type::bf16x2;
    if (s == "pred") return Type::pred;
    return std::nullopt;
  }

  Type need_type(const Token& t, const std::string& s) const {
    auto ty = type_of(s);
    if (!ty) fail(t, "unknown type '" + s + "' (u32, s32, f32, u64, s64, f16x2, bf16x2, pred)");
    return *ty;
  }

  std::uint16_t add_reg(const Token& t, const std::string& name, Type type) {
    if (name.empty() || !(std::isalpha((unsigned char)name[0]) || name[0] == '_'))
      fail(t, "bad register name '" + name + "'");
    if (reg_index_.count(name)) fail(t, "register '" + name + "' declared twice");
    for (const char* sp : {"tid", "ntid", "ctaid", "nctaid", "laneid", "warpid", "clock"})
      if (name == sp) fail(t, "'" + name + "' is a special register (%" + name + "); pick another register name");
    if (prog_.regs.size() >= 60000) fail(t, "too many registers");
    reg_index_[name] = int(prog_.regs.size());
    prog_.regs.push_back({name, type});
    return std::uint16_t(prog_.regs.size() - 1);
  }

  void parse_line(std::string line) {
    for (const char* c : {"//", "#"}) {
      auto p = line.find(c);
      if (p != std::string::npos) line.erase(p);
    }
    auto toks = tokenize(line);
    if (toks.empty()) return;
    // labels: "NAME:" possibly followed by an instruction
    while (!toks.empty() && toks[0].text.size() > 1 && toks[0].text.back() == ':') {
      std::string name = toks[0].text.substr(0, toks[0].text.size() - 1);
      if (labels_.count(name)) fail(toks[0], "label '" + name + "' defined twice");
      labels_[name] = int(prog_.code.size());
      toks.erase(toks.begin());
    }
    if (toks.empty()) return;
    if (toks[0].text[0] == '.') return directive(toks, line);
    instruction(toks, line);
  }

  void directive(const std::vector<Token>& t, const std::string&) {
    const std::string& d = t[0].text;
    if (d == ".kernel") {
      if (t.size() != 2) fail(t[0], "expected `.kernel NAME`");
      prog_.name = t[1].text;
    } else if (d == ".reg") {
      if (t.size() < 3) fail(t[0], "expected `.reg TYPE NAME[, NAME<N>...]`");
      Type ty = need_type(t[1], t[1].text);
      for (std::size_t i = 2; i < t.size(); ++i) {
        std::string n = t[i].text;
        if (!n.empty() && n[0] == '%') n.erase(0, 1);
        auto lt = n.find('<');
        if (lt != std::string::npos) {
          int count = std::atoi(n.c_str() + lt + 1);
          if (count <= 0 || n.back() != '>') fail(t[i], "expected NAME<COUNT>");
          for (int k = 0; k < count; ++k) add_reg(t[i], n.substr(0, lt) + std::to_string(k), ty);
        } else {
          add_reg(t[i], n, ty);
        }
      }
    } else if (d == ".param") {
      // .param buf NAME TYPE [= SPEC]   |   .param TYPE NAME [= VALUE]
      if (t.size() < 3) fail(t[0], "expected `.param buf NAME TYPE [= SPEC]` or `.param TYPE NAME [= VALUE]`");
      KernelParam p;
      std::size_t next = 3;
      if (t[1].text == "buf") {
        if (t.size() < 4) fail(t[0], "expected `.param buf NAME TYPE [= SPEC]`");
        p.buffer = true;
        p.name = t[2].text;
        p.type = need_type(t[3], t[3].text);
        next = 4;
        p.reg = add_reg(t[2], p.name, Type::u64);
      } else {
        p.type = need_type(t[1], t[1].text);
        p.name = t[2].text;
        p.reg = add_reg(t[2], p.name, p.type);
      }
      if (next < t.size()) {
        if (t[next].text != "=" || next + 1 >= t.size()) fail(t[next], "expected `= DEFAULT`");
        p.default_spec = t[next + 1].text;
      }
      prog_.params.push_back(p);
    } else if (d == ".shared") {
      // .shared TYPE NAME[COUNT]
      if (t.size() != 3) fail(t[0], "expected `.shared TYPE NAME[COUNT]`");
      SharedDecl s;
      s.type = need_type(t[1], t[1].text);
      auto lb = t[2].text.find('[');
      if (lb == std::string::npos || t[2].text.back() != ']') fail(t[2], "expected NAME[COUNT]");
      s.name = t[2].text.substr(0, lb);
      long long count = std::atoll(t[2].text.c_str() + lb + 1);
      if (count <= 0) fail(t[2], "shared array needs a positive element count");
      s.bytes = std::uint64_t(count) * type_bytes(s.type);
      s.offset = (prog_.shared_bytes + 15) / 16 * 16;
      prog_.shared_bytes = s.offset + s.bytes;
      s.reg = add_reg(t[2], s.name, Type::u32);
      prog_.shared.push_back(s);
    } else {
      fail(t[0], "unknown directive '" + d + "' (.kernel, .reg, .param, .shared)");
    }
  }

  int reg_of(const Token& t, std::string name) const {
    if (!name.empty() && name[0] == '%') name.erase(0, 1);
    auto it = reg_index_.find(name);
    if (it == reg_index_.end()) fail(t, "unknown register '%" + name + "' (declare it with .reg)");
    return it->second;
  }

  static bool int_like(Type a) { return a == Type::u32 || a == Type::s32; }
  static bool wide_like(Type a) { return a == Type::u64 || a == Type::s64; }
  static bool compatible(Type reg, Type want) {
    if (reg == want) return true;
    if (int_like(reg) && int_like(want)) return true;
    if (wide_like(reg) && wide_like(want)) return true;
    return false;
  }

  void check_reg(const Token& t, int r, Type want) const {
    Type have = prog_.regs[r].type;
    if (!compatible(have, want))
      fail(t, fmt::format("register '%{}' is {} but the instruction wants {}", prog_.regs[r].name,
                          type_name(have), type_name(want)));
  }

  std::uint16_t dst_reg(const Token& t, Type want) {
    int r = reg_of(t, t.text);
    check_reg(t, r, want);
    return std::uint16_t(r);
  }

  Operand source(const Token& t, Type want) {
    Operand o;
    const std::string& s = t.text;
    if (s.empty()) fail(t, "empty operand");
    if (s[0] != '%' && reg_index_.count(s)) {  // registers may be written without the %
      o.kind = Operand::k_reg;
      o.reg = std::uint16_t(reg_of(t, s));
      check_reg(t, o.reg, want);
      return o;
    }
    if (s[0] == '%') {
      static const std::map<std::string, Special> specials = {
          {"tid", Special::tid}, {"ntid", Special::ntid}, {"ctaid", Special::ctaid},
          {"nctaid", Special::nctaid}, {"laneid", Special::laneid}, {"warpid", Special::warpid},
          {"clock", Special::clock}};
      std::string base = s.substr(1);
      if (base.size() > 2 && base.substr(base.size() - 2) == ".x") base.resize(base.size() - 2);
      auto sp = specials.find(base);
      if (sp != specials.end()) {
        if (!int_like(want) && !wide_like(want)) fail(t, "special register %" + base + " is u32");
        o.kind = Operand::k_special;
        o.special = sp->second;
        return o;
      }
      o.kind = Operand::k_reg;
      o.reg = std::uint16_t(reg_of(t, s));
      check_reg(t, o.reg, want);
      return o;
    }
    o.kind = Operand::k_imm;
    char* end = nullptr;
    if (want == Type::f32) {
      float f = std::strtof(s.c_str(), &end);
      if (*end) fail(t, "bad f32 immediate '" + s + "'");
      o.bits = std::bit_cast<std::uint32_t>(f);
    } else if (want == Type::pred) {
      fail(t, "expected a predicate register, got '" + s + "'");
    } else {
      long long v = std::strtoll(s.c_str(), &end, 0);
      if (*end) fail(t, "'" + s + "' is neither a declared register nor an integer");
      o.bits = std::uint64_t(v);
      if (!wide_like(want)) o.bits &= 0xffffffffull;
    }
    return o;
  }

  // "[%r]", "[%r+16]", "[%r-4]" into (base operand, offset)
  void address(const Token& t, Instr& in, Type base_type) {
    const std::string& s = t.text;
    if (s.size() < 3 || s.front() != '[') fail(t, "expected an address [%reg+offset]");
    std::string body = s.substr(1, s.size() - 2);
    std::size_t op = body.find_first_of("+-", 1);
    std::string base = body.substr(0, op);
    while (!base.empty() && std::isspace((unsigned char)base.back())) base.pop_back();
    Token bt{base, t.col + 1};
    in.src.insert(in.src.begin(), source(bt, base_type));
    if (op != std::string::npos) {
      char* end = nullptr;
      long long off = std::strtoll(body.c_str() + op + 1, &end, 0);
      while (*end && std::isspace((unsigned char)*end)) ++end;
      if (*end) fail(t, "bad address offset in '" + s + "'");
      in.offset = body[op] == '-' ? -off : off;
    }
  }

  std::vector<Token> vector_regs(const Token& t) {
    std::vector<Token> out;
    if (t.text.front() != '{') return {t};
    std::string body = t.text.substr(1, t.text.size() - 2);
    auto inner = tokenize(body);
    for (auto& x : inner) {
      x.col += t.col;
      out.push_back(x);
    }
    return out;
  }

  void expect_count(const std::vector<Token>& t, std::size_t n, const char* form) {
    if (t.size() != n + 1) fail(t[0], fmt::format("expected `{}`", form));
  }

  void instruction(std::vector<Token> t, const std::string& line) {
    Instr in;
    in.line = line_no_;
    in.column = t[0].col;
    {
      std::string trimmed = line;
      while (!trimmed.empty() && std::isspace((unsigned char)trimmed.back())) trimmed.pop_back();
      std::size_t a = trimmed.find_first_not_of(" \t");
      in.text = a == std::string::npos ? "" : trimmed.substr(a);
    }
    if (t[0].text[0] == '@') {
      std::string g = t[0].text.substr(1);
      if (!g.empty() && g[0] == '!') { in.guard_negated = true; g.erase(0, 1); }
      int r = reg_of(t[0], g);
      check_reg(t[0], r, Type::pred);
      in.guard = std::int16_t(r);
      t.erase(t.begin());
      if (t.empty()) fail(line_no_, in.column, "predicate without an instruction");
    }
    in.column = t[0].col;
    auto parts = split_dots(t[0].text);
    const std::string& m = parts[0];
    auto last_type = [&](Type dflt) -> Type {
      for (std::size_t i = parts.size(); i-- > 1;)
        if (auto ty = type_of(parts[i])) return *ty;
      return dflt;
    };
    auto has = [&](const char* mod) {
      for (std::size_t i = 1; i < parts.size(); ++i)
        if (parts[i] == mod) return true;
      return false;
    };
    static const std::map<std::string, Op> arith = {
        {"mov", Op::mov}, {"add", Op::add}, {"sub", Op::sub}, {"mul", Op::mul}, {"mad", Op::mad},
        {"fma", Op::fma}, {"div", Op::div}, {"rem", Op::rem}, {"min", Op::min}, {"max", Op::max},
        {"neg", Op::neg}, {"abs", Op::abs}, {"shl", Op::shl}, {"shr", Op::shr}, {"and", Op::and_},
        {"or", Op::or_}, {"xor", Op::xor_}, {"not", Op::not_}, {"ex2", Op::ex2}, {"lg2", Op::lg2},
        {"rcp", Op::rcp}, {"sqrt", Op::sqrt}, {"rsqrt", Op::rsqrt}, {"selp", Op::selp}};
    auto arity = [](Op op) {
      switch (op) {
        case Op::mov: case Op::neg: case Op::abs: case Op::not_: case Op::ex2: case Op::lg2:
        case Op::rcp: case Op::sqrt: case Op::rsqrt: return 1;
        case Op::mad: case Op::fma: case Op::selp: return 3;
        default: return 2;
      }
    };
    if (auto it = arith.find(m); it != arith.end()) {
      in.op = it->second;
      in.type = last_type(Type::u32);
      if (in.type == Type::pred && in.op != Op::mov && in.op != Op::and_ && in.op != Op::or_ &&
          in.op != Op::xor_ && in.op != Op::not_)
        fail(t[0], std::string(op_name(in.op)) + " does not take .pred");
      if (in.type == Type::f16x2 || in.type == Type::bf16x2) {
        if (in.op != Op::add && in.op != Op::mul && in.op != Op::fma && in.op != Op::mov)
          fail(t[0], "f16x2/bf16x2 support add, mul, fma and mov");
      }
      in.wide = has("wide");
      if (in.wide && !(in.op == Op::mul || in.op == Op::mad)) fail(t[0], ".wide is for mul and mad");
      if (in.wide && !int_like(in.type)) fail(t[0], ".wide takes u32 or s32 sources");
      bool is_float = in.type == Type::f32;
      if (in.op == Op::fma && !is_float && in.type != Type::f16x2 && in.type != Type::bf16x2)
        fail(t[0], "fma is for floats; use mad for integers");
      if ((in.op == Op::mad) && is_float) fail(t[0], "mad is for integers; use fma for f32");
      if ((in.op == Op::ex2 || in.op == Op::lg2 || in.op == Op::rcp || in.op == Op::sqrt ||
           in.op == Op::rsqrt) && !is_float)
        fail(t[0], std::string(op_name(in.op)) + " takes .f32");
      if ((in.op == Op::shl || in.op == Op::shr || in.op == Op::rem || in.op == Op::not_) && is_float)
        fail(t[0], std::string(op_name(in.op)) + " is an integer instruction");
      int n = arity(in.op);
      expect_count(t, n + 1, fmt::format("{} DST{}", m, n == 1 ? ", A" : n == 2 ? ", A, B" : ", A, B, C").c_str());
      Type dst_t = in.wide ? (in.type == Type::s32 ? Type::s64 : Type::u64) : in.type;
      in.dst.push_back(dst_reg(t[1], dst_t));
      for (int k = 0; k < n; ++k) {
        Type want = in.type;
        if (in.op == Op::selp && k == 2) want = Type::pred;
        if (in.op == Op::mad && in.wide && k == 2) want = dst_t;
        if ((in.op == Op::shl || in.op == Op::shr) && k == 1) want = Type::u32;
        in.src.push_back(source(t[2 + k], want));
      }
      if (in.op == Op::ex2 || in.op == Op::lg2 || in.op == Op::rcp || in.op == Op::sqrt ||
          in.op == Op::rsqrt || (in.op == Op::div && is_float) || in.op == Op::div || in.op == Op::rem)
        in.pipe = Pipe::sfu;
      else if (is_float || in.type == Type::f16x2 || in.type == Type::bf16x2)
        in.pipe = Pipe::fp32;
      else
        in.pipe = Pipe::int_;
    } else if (m == "setp") {
      in.op = Op::setp;
      static const std::map<std::string, Cmp> cmps = {{"eq", Cmp::eq}, {"ne", Cmp::ne}, {"lt", Cmp::lt},
                                                      {"le", Cmp::le}, {"gt", Cmp::gt}, {"ge", Cmp::ge}};
      if (parts.size() != 3 || !cmps.count(parts[1])) fail(t[0], "expected setp.CMP.TYPE (CMP: eq ne lt le gt ge)");
      in.cmp = cmps.at(parts[1]);
      in.type = need_type(t[0], parts[2]);
      expect_count(t, 3, "setp.CMP.TYPE P, A, B");
      in.dst.push_back(dst_reg(t[1], Type::pred));
      in.src.push_back(source(t[2], in.type));
      in.src.push_back(source(t[3], in.type));
      in.pipe = in.type == Type::f32 ? Pipe::fp32 : Pipe::int_;
    } else if (m == "cvt") {
      in.op = Op::cvt;
      if (parts.size() != 3) fail(t[0], "expected cvt.DSTTYPE.SRCTYPE");
      in.type = need_type(t[0], parts[1]);
      in.src_type = need_type(t[0], parts[2]);
      expect_count(t, 2, "cvt.D.S DST, A");
      in.dst.push_back(dst_reg(t[1], in.type));
      in.src.push_back(source(t[2], in.src_type));
      in.pipe = Pipe::int_;
    } else if (m == "ld" || m == "st") {
      in.op = m == "ld" ? Op::ld : Op::st;
      if (has("global")) in.space = Space::global;
      else if (has("shared")) in.space = Space::shared;
      else fail(t[0], m + " needs .global or .shared");
      if (has("v2")) in.vec = 2;
      if (has("v4")) in.vec = 4;
      in.l2_only = in.op == Op::ld && in.space == Space::global && has("cg");
      in.type = last_type(Type::u32);
      if (in.type == Type::pred) fail(t[0], "cannot load or store a predicate");
      if (in.vec * type_bytes(in.type) > 16) fail(t[0], "accesses are at most 16 bytes");
      expect_count(t, 2, in.op == Op::ld ? "ld.SPACE[.vN].TYPE DST, [ADDR]" : "st.SPACE[.vN].TYPE [ADDR], SRC");
      const Token& regs_tok = in.op == Op::ld ? t[1] : t[2];
      const Token& addr_tok = in.op == Op::ld ? t[2] : t[1];
      auto regs = vector_regs(regs_tok);
      if (int(regs.size()) != in.vec) fail(regs_tok, fmt::format("expected {} registers", int(in.vec)));
      if (in.op == Op::ld) {
        for (auto& r : regs) in.dst.push_back(dst_reg(r, in.type));
      } else {
        for (auto& r : regs) in.src.push_back(source(r, in.type));
      }
      address(addr_tok, in, in.space == Space::global ? Type::u64 : Type::u32);
      in.pipe = Pipe::lsu;
    } else if (m == "atom") {
      in.op = Op::atom_add;
      if (!has("global") || !has("add")) fail(t[0], "supported: atom.global.add.TYPE DST, [ADDR], V");
      in.space = Space::global;
      in.type = last_type(Type::u32);
      if (in.type != Type::u32 && in.type != Type::s32 && in.type != Type::f32) fail(t[0], "atom.add takes u32, s32, f32");
      expect_count(t, 3, "atom.global.add.TYPE DST, [ADDR], V");
      in.dst.push_back(dst_reg(t[1], in.type));
      in.src.push_back(source(t[3], in.type));
      address(t[2], in, Type::u64);
      in.pipe = Pipe::lsu;
    } else if (m == "shfl") {
      in.op = Op::shfl;
      if (has("idx")) in.shfl = Shfl::idx;
      else if (has("up")) in.shfl = Shfl::up;
      else if (has("down")) in.shfl = Shfl::down;
      else if (has("bfly")) in.shfl = Shfl::bfly;
      else fail(t[0], "shfl needs a mode: .idx .up .down .bfly");
      in.type = last_type(Type::u32);
      if (type_bytes(in.type) != 4 || in.type == Type::pred) fail(t[0], "shfl moves 32-bit values");
      expect_count(t, 3, "shfl.MODE.TYPE DST, A, LANE_OR_DELTA");
      in.dst.push_back(dst_reg(t[1], in.type));
      in.src.push_back(source(t[2], in.type));
      in.src.push_back(source(t[3], Type::u32));
      in.pipe = Pipe::lsu;
    } else if (m == "bar") {
      in.op = Op::bar;
      in.pipe = Pipe::ctrl;
      if (t.size() > 2) fail(t[0], "expected `bar.sync`");
    } else if (m == "bra") {
      in.op = Op::bra;
      in.pipe = Pipe::ctrl;
      expect_count(t, 1, "bra LABEL");
      fixups_.emplace_back(int(prog_.code.size()), t[1].text, t[1].col, line_no_);
    } else if (m == "exit" || m == "ret") {
      in.op = Op::exit;
      in.pipe = Pipe::ctrl;
    } else if (m == "mma") {
      // mma.m16n8k16.f32.f16: D(16x8 f32) = A(16x16 f16) x B(16x8 f16) + C, one warp.
      // Operands: {d0..d3}, {a0..a3}, {b0, b1}, {c0..c3} with f16x2 pairs in a/b (PTX fragment layout).
      in.op = Op::mma;
      in.pipe = Pipe::tensor;
      in.type = Type::f32;
      expect_count(t, 4, "mma.m16n8k16.f32.f16 {D0..D3}, {A0..A3}, {B0,B1}, {C0..C3}");
      auto d = vector_regs(t[1]), a = vector_regs(t[2]), b = vector_regs(t[3]), c = vector_regs(t[4]);
      if (d.size() != 4 || a.size() != 4 || b.size() != 2 || c.size() != 4)
        fail(t[1], "mma wants 4 D, 4 A, 2 B and 4 C registers");
      for (auto& r : d) in.dst.push_back(dst_reg(r, Type::f32));
      for (auto& r : a) in.src.push_back(source(r, Type::f16x2));
      for (auto& r : b) in.src.push_back(source(r, Type::f16x2));
      for (auto& r : c) in.src.push_back(source(r, Type::f32));
    } else if (m == "nop") {
      in.op = Op::nop;
    } else {
      fail(t[0], "unknown instruction '" + shorten(m, 40) + "'");
    }
    prog_.code.push_back(std::move(in));
  }
};

}  // namespace

Program parse_kernel(const std::string& source, const std::string& file) {
  return Parser(source, file).run();
}

Program load_kernel(const std::string& path) { return parse_kernel(read_input_file(path, "kernel file"), path); }

// Immediate post-dominators (Cooper, Harvey and Kennedy's iterative dominator algorithm on the
// reversed control-flow graph, rooted at node n = exit): linear memory and near-linear time, so a
// program of many thousands of branches is analysed in milliseconds. A branch or exit reconverges
// at its immediate post-dominator; an instruction that never reaches exit (an endless loop)
// reconverges only at exit.
void compute_reconvergence(Program& p) {
  const int n = int(p.code.size());
  auto successors = [&](int i, int out[2]) {
    const Instr& in = p.code[std::size_t(i)];
    int count = 0;
    if (in.op == Op::exit) out[count++] = n;
    else if (in.op == Op::bra) out[count++] = std::min(in.target, n);
    if (in.op == Op::exit || in.op == Op::bra ? in.guard >= 0 : true) out[count++] = std::min(i + 1, n);
    return count;
  };
  // Predecessors: the edges of the reversed graph.
  std::vector<std::vector<int>> preds(std::size_t(n) + 1);
  for (int i = 0; i < n; ++i) {
    int s[2];
    for (int k = 0, c = successors(i, s); k < c; ++k) preds[std::size_t(s[k])].push_back(i);
  }
  // Post-order of the reversed graph from exit (iterative: no recursion depth to overflow).
  std::vector<int> order, number(std::size_t(n) + 1, -1);
  std::vector<std::pair<int, std::size_t>> stack{{n, 0}};
  std::vector<char> seen(std::size_t(n) + 1, 0);
  seen[std::size_t(n)] = 1;
  while (!stack.empty()) {
    auto& [v, next] = stack.back();
    if (next < preds[std::size_t(v)].size()) {
      int u = preds[std::size_t(v)][next++];
      if (!seen[std::size_t(u)]) seen[std::size_t(u)] = 1, stack.push_back({u, 0});
      continue;
    }
    number[std::size_t(v)] = int(order.size());
    order.push_back(v);
    stack.pop_back();
  }
  std::vector<int> ipdom(std::size_t(n) + 1, -1);
  ipdom[std::size_t(n)] = n;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (number[std::size_t(a)] < number[std::size_t(b)]) a = ipdom[std::size_t(a)];
      while (number[std::size_t(b)] < number[std::size_t(a)]) b = ipdom[std::size_t(b)];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {  // reverse post-order
      int v = *it;
      if (v == n) continue;
      int s[2], best = -1;
      for (int k = 0, c = successors(v, s); k < c; ++k)
        if (ipdom[std::size_t(s[k])] >= 0) best = best < 0 ? s[k] : intersect(s[k], best);
      if (best >= 0 && ipdom[std::size_t(v)] != best) ipdom[std::size_t(v)] = best, changed = true;
    }
  }
  for (int i = 0; i < n; ++i) {
    Instr& in = p.code[std::size_t(i)];
    if (in.op == Op::bra || in.op == Op::exit) in.reconverge = ipdom[std::size_t(i)] >= 0 ? ipdom[std::size_t(i)] : n;
  }
}

std::string disassemble(const Program& p) {
  std::string out = fmt::format("kernel {} ({}): {} instructions, {} registers/thread, {} B shared\n",
                                p.name, p.file, p.code.size(), p.registers_per_thread(), p.shared_bytes);
  for (std::size_t i = 0; i < p.code.size(); ++i) {
    const Instr& in = p.code[i];
    out += fmt::format("{:4} {:>4}:{:<3} [{:<6}] {}", i, in.line, in.column, pipe_name(in.pipe), in.text);
    if (in.op == Op::bra) out += fmt::format("   -> {} (reconverge {})", in.target, in.reconverge);
    out += "\n";
  }
  return out;
}

}  // namespace hwsim::warp
