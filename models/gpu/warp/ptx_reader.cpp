// The PTX reader (ptx_reader.h): module directives, .entry headers and bodies, shared arrays and
// parameters; instructions go to the statement parser.
#include "models/gpu/warp/ptx_reader.h"

#include <cxxabi.h>
#include <cstdlib>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <set>

#include "models/gpu/warp/list_scheduler.h"
#include "models/gpu/warp/parser.h"
#include "models/gpu/warp/ptx_calls.h"
#include "models/gpu/warp/ptx_scan.h"
#include "models/gpu/warp/ptxas_lowering.h"
#include "models/gpu/warp/register_estimate.h"
#include "models/gpu/warp/statement_parser.h"
#include "sim/error.h"

namespace hwsim::warp {
namespace {

std::string trim(const std::string& s) {
  std::size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::string w;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == ',') {
      if (!w.empty()) out.push_back(w), w.clear();
    } else {
      w += c;
    }
  }
  if (!w.empty()) out.push_back(w);
  return out;
}

// Splits a demangled parameter list at its top-level commas.
std::vector<std::string> split_params(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '<' || c == '(' || c == '[') ++depth;
    if (c == '>' || c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) out.push_back(trim(cur)), cur.clear();
    else cur += c;
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

void demangle(PtxEntry& e) {
  e.demangled = e.short_name = e.name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(e.name.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || !d) return;
  std::string s = d.get();
  // the parameter list: the last top-level (...)
  int depth = 0;
  std::size_t open = std::string::npos;
  for (std::size_t i = s.size(); i-- > 0;) {
    if (s[i] == ')') ++depth;
    if (s[i] == '(' && --depth == 0) { open = i; break; }
  }
  if (open == std::string::npos) return;
  std::string head = s.substr(0, open);
  // a template's demangled name starts with its return type: keep what follows the last top-level space
  depth = 0;
  std::size_t cut = 0;
  for (std::size_t i = 0; i < head.size(); ++i) {
    if (head[i] == '<') ++depth;
    if (head[i] == '>') --depth;
    if (head[i] == ' ' && depth == 0) cut = i + 1;
  }
  e.short_name = head.substr(cut);
  e.demangled = s.substr(cut);
  auto params = split_params(s.substr(open + 1, s.size() - open - 2));
  if (params.size() == 1 && params[0] == "void") params.clear();
  for (std::size_t i = 0; i < params.size() && i < e.params.size(); ++i) e.params[i].cpp_type = params[i];
}

// A C++ type from a demangled signature: a pointer's element type (buffer = true) or a scalar's.
std::optional<Type> cpp_type(std::string s, bool& buffer) {
  buffer = false;
  for (const char* q : {"const", "volatile", "__restrict__", "__restrict", "restrict"})
    for (auto p = s.find(q); p != std::string::npos; p = s.find(q)) s.erase(p, std::strlen(q));
  s = trim(s);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (!s.empty() && s.back() == '*') {
    buffer = true;
    s = trim(s.substr(0, s.size() - 1));
    while (s.find("  ") != std::string::npos) s.erase(s.find("  "), 1);
  }
  static const std::map<std::string, Type> types = {
      {"float", Type::f32}, {"double", Type::f64}, {"int", Type::s32}, {"unsigned int", Type::u32},
      {"unsigned", Type::u32}, {"char", Type::s8}, {"signed char", Type::s8}, {"unsigned char", Type::u8},
      {"bool", Type::u8}, {"short", Type::s16}, {"unsigned short", Type::u16}, {"long", Type::s64},
      {"unsigned long", Type::u64}, {"long long", Type::s64}, {"unsigned long long", Type::u64},
      {"__half", Type::f16}, {"half", Type::f16}, {"__nv_bfloat16", Type::bf16}, {"int8_t", Type::s8},
      {"uint8_t", Type::u8}, {"int32_t", Type::s32}, {"uint32_t", Type::u32}, {"int64_t", Type::s64},
      {"uint64_t", Type::u64}, {"size_t", Type::u64}};
  auto it = types.find(s);
  if (it == types.end()) return std::nullopt;
  return it->second;
}

struct Module {
  std::string file;
  std::vector<PtxItem> items;
  [[noreturn]] void fail(const PtxItem& at, const std::string& what) const {
    workload_error(fmt::format("{}:{}:{}: {}", file, at.line, at.col, what));
  }
};

// An .entry header "… .entry NAME( .param … , … ) [.maxntid …]" into `e` (and the program's
// launch directives when `prog` is given).
void read_header(const Module& m, const PtxItem& h, PtxEntry& e, Program* prog) {
  const std::string& s = h.text;
  std::size_t at = s.find(".entry");
  std::size_t open = s.find('(', at), close = s.rfind(')');
  std::string name = trim(s.substr(at + 6, (open == std::string::npos ? s.size() : open) - at - 6));
  if (name.empty()) m.fail(h, "expected `.entry NAME(PARAMS)`");
  e.name = name;
  e.line = h.line;
  if (open != std::string::npos) {
    if (close == std::string::npos || close < open) m.fail(h, "missing ')' after the .entry's parameters");
    for (const auto& p : split_params(s.substr(open + 1, close - open - 1))) {
      auto w = words(p);
      if (w.size() < 3 || w[0] != ".param") m.fail(h, "bad parameter '" + p + "' (expected `.param .TYPE NAME`)");
      PtxParam pp;
      pp.ptx_name = w.back();
      if (pp.ptx_name.find('[') != std::string::npos)
        m.fail(h, "parameter " + pp.ptx_name + " is passed by value as an array or struct: not supported (pointers and scalars)");
      bool typed = false;
      for (std::size_t k = 1; k + 1 < w.size() && !typed; ++k)
        if (auto t = w[k].size() > 1 && w[k][0] == '.' ? ptx_type(w[k].substr(1)) : std::nullopt; t && *t != Type::pred)
          pp.ptx_type = *t, typed = true;
      if (!typed) m.fail(h, "parameter " + pp.ptx_name + " has no type");
      e.params.push_back(pp);
    }
  }
  demangle(e);
  if (!prog || close == std::string::npos) return;
  auto w = words(s.substr(close + 1));
  auto dims = [&](std::size_t i, int* out) {
    for (int k = 0; k < 3 && i + 1 + std::size_t(k) < w.size() && w[i + 1 + std::size_t(k)][0] != '.'; ++k)
      out[k] = std::atoi(w[i + 1 + std::size_t(k)].c_str());
  };
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i] == ".reqntid") {
      int d[3] = {1, 1, 1};
      dims(i, d);
      for (int k = 0; k < 3; ++k) prog->reqntid[k] = d[k];
    } else if (w[i] == ".maxntid") {
      int d[3] = {1, 1, 1};
      dims(i, d);
      prog->maxntid = d[0] * d[1] * d[2];
    } else if (w[i] == ".maxnreg" && i + 1 < w.size()) {
      prog->maxnreg = std::atoi(w[i + 1].c_str());
    }
  }
}

// Index of the `}` closing the block opened at items[open].
std::size_t block_end(const Module& m, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < m.items.size(); ++i) {
    if (m.items[i].kind == PtxItem::open) ++depth;
    if (m.items[i].kind == PtxItem::close && --depth == 0) return i;
  }
  m.fail(m.items[open], "missing '}'");
}

bool is_entry(const PtxItem& it) { return it.kind == PtxItem::statement && words(it.text).size() > 1 && it.text.find(".entry") != std::string::npos; }
bool is_func(const PtxItem& it) { return it.kind == PtxItem::statement && it.text.find(".func") != std::string::npos; }

// A shared array's declaration "[.extern] .shared [.align N] .TYPE NAME[COUNT]..." into `d`.
bool read_shared(const Module& m, const PtxItem& it, SharedDecl& d, std::uint64_t& align) {
  auto w = words(it.text);
  bool shared = false;
  align = 1;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i] == ".shared") shared = true;
    else if (w[i] == ".extern") d.dynamic = true;
    else if (w[i] == ".align" && i + 1 < w.size()) align = std::strtoull(w[++i].c_str(), nullptr, 10);
  }
  if (!shared) return false;
  std::string decl = w.back();
  for (const auto& x : w)
    if (auto t = x.size() > 1 && x[0] == '.' ? ptx_type(x.substr(1)) : std::nullopt; t && *t != Type::pred) d.type = *t;
  auto lb = decl.find('[');
  d.name = decl.substr(0, lb);
  std::uint64_t count = 1;
  for (std::size_t p = lb; p != std::string::npos; p = decl.find('[', p + 1)) {
    std::string n = decl.substr(p + 1, decl.find(']', p) - p - 1);
    if (n.empty()) {
      if (!d.dynamic) m.fail(it, "shared array " + d.name + " has no size (only `.extern .shared` arrays are sized by the launch)");
      count = 0;
      break;
    }
    count *= std::strtoull(n.c_str(), nullptr, 10);
  }
  d.bytes = d.dynamic ? 0 : count * std::uint64_t(type_bytes(d.type));
  d.has_reg = false;
  return true;
}

// The entry that `want` names (see parse_ptx), or a one-line error listing them.
std::size_t choose_entry(const std::vector<PtxEntry>& es, const std::string& want, const std::string& file) {
  auto names = [&] {
    std::string s;
    for (const auto& e : es) s += (s.empty() ? "" : ", ") + e.short_name;
    return s;
  };
  if (es.empty()) workload_error(fmt::format("{}: no kernel (.entry) in the module", file));
  if (want.empty()) {
    if (es.size() == 1) return 0;
    workload_error(fmt::format("{}: {} kernels; choose one with --entry NAME ({})", file, es.size(), names()));
  }
  for (std::size_t i = 0; i < es.size(); ++i)
    if (es[i].name == want || es[i].demangled == want || es[i].short_name == want) return i;
  std::vector<std::size_t> base;
  for (std::size_t i = 0; i < es.size(); ++i)
    if (es[i].short_name.substr(0, es[i].short_name.find('<')) == want) base.push_back(i);
  if (base.size() == 1) return base[0];
  workload_error(fmt::format("{}: --entry {}: {} ({})", file, want,
                             base.empty() ? "no such kernel" : "several instantiations; name one with its template arguments", names()));
}

// Parameters into the program: named by position, their registers aliased by their PTX names.
void bind_params(const PtxEntry& e, Program& prog, StatementParser& sp) {
  for (std::size_t i = 0; i < e.params.size(); ++i) {
    const PtxParam& p = e.params[i];
    KernelParam kp;
    kp.name = std::to_string(i);
    bool buffer = false;
    auto t = p.cpp_type.empty() ? std::nullopt : cpp_type(p.cpp_type, buffer);
    if (buffer && t) kp.buffer = true, kp.type = *t;
    else {
      kp.type = p.ptx_type;
      kp.untyped = p.ptx_type == Type::u64 && (p.cpp_type.empty() || buffer);
    }
    kp.reg = sp.add_reg(Token{"", 1}, "__param" + std::to_string(i), kp.buffer ? Type::u64 : p.ptx_type);
    sp.add_param_alias(p.ptx_name, kp.reg);
    prog.params.push_back(kp);
  }
}

// Lays out the entry's shared arrays (module-scope ones it names, then its own; the dynamic array
// after them all) and makes their names immediates.
void layout_shared(const Module& m, std::size_t open, std::size_t close, Program& prog, StatementParser& sp) {
  std::vector<std::pair<SharedDecl, std::uint64_t>> decls;
  std::set<std::string> used;
  for (std::size_t i = open; i < close; ++i)
    for (std::string w : words(m.items[i].text)) {  // every name the body mentions, [x+4] as x
      if (!w.empty() && w[0] == '[') w.erase(0, 1);
      used.insert(w.substr(0, w.find_first_of("+-]")));
    }
  int depth = 0;
  for (std::size_t i = 0; i < m.items.size(); ++i) {
    const PtxItem& it = m.items[i];
    if (it.kind == PtxItem::open) ++depth;
    if (it.kind == PtxItem::close) --depth;
    if (it.kind != PtxItem::statement || it.text.find(".shared") == std::string::npos || is_entry(it) || is_func(it)) continue;
    const bool own = i > open && i < close;
    if (depth != 0 && !own) continue;
    SharedDecl d;
    std::uint64_t align = 1;
    if (!read_shared(m, it, d, align)) continue;
    if (!own && !used.count(d.name)) continue;
    decls.push_back({d, std::max<std::uint64_t>(align, 1)});
  }
  std::uint64_t end = 0;
  for (auto& [d, align] : decls)
    if (!d.dynamic) d.offset = (end + align - 1) / align * align, end = d.offset + d.bytes;
  for (auto& [d, align] : decls)
    if (d.dynamic) d.offset = (end + std::max<std::uint64_t>(align, 16) - 1) / std::max<std::uint64_t>(align, 16) * std::max<std::uint64_t>(align, 16);
  prog.shared_bytes = end;
  for (auto& [d, align] : decls) {
    sp.add_symbol(d.name, d.offset);
    prog.shared.push_back(d);
  }
}

// A per-thread array "[.local] [.align N] .TYPE NAME[COUNT]": its name becomes its offset in the
// thread's local frame (Program::local_bytes; generic addresses add kLocalWindow).
void local_array(const PtxItem& it, const std::vector<Token>& toks, Program& prog, StatementParser& sp) {
  auto w = words(it.text);
  std::uint64_t align = 1;
  Type ty = Type::u8;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i] == ".align" && i + 1 < w.size()) align = std::max<std::uint64_t>(1, std::strtoull(w[++i].c_str(), nullptr, 10));
    else if (auto t = w[i].size() > 1 && w[i][0] == '.' ? ptx_type(w[i].substr(1)) : std::nullopt; t && *t != Type::pred) ty = *t;
  }
  const std::string decl = w.back();
  const auto lb = decl.find('[');
  if (lb == std::string::npos) sp.fail(toks.back(), "expected `.local .TYPE NAME[COUNT]`");
  const std::string name = decl.substr(0, lb);
  if (sp.has_symbol(name)) return;  // a function inlined twice declares its frame once
  const std::uint64_t count = std::strtoull(decl.c_str() + lb + 1, nullptr, 10);
  const std::uint64_t at = (prog.local_bytes + align - 1) / align * align;
  prog.local_bytes = at + count * std::uint64_t(type_bytes(ty));
  if (prog.local_bytes > kLocalFrameMax) sp.fail(toks.back(), fmt::format("local memory of {} bytes per thread (at most {})", prog.local_bytes, kLocalFrameMax));
  sp.add_symbol(name, at);
}

// The entry's body: declarations, labels and instructions.
void read_body(const Module& m, std::size_t open, std::size_t close, Program& prog, StatementParser& sp) {
  for (std::size_t i = open + 1; i < close; ++i) {
    const PtxItem& it = m.items[i];
    sp.at_line(it.line);
    if (it.kind == PtxItem::open || it.kind == PtxItem::close) continue;  // nested scopes
    auto toks = tokenize(it.text, prog.file, it.line);
    for (auto& t : toks) t.col += it.col - 1;
    if (it.kind == PtxItem::label) {
      sp.label(Token{it.text, it.col}, it.text);
      continue;
    }
    const std::string& d = toks[0].text;
    if (d == ".reg") {
      if (toks.size() < 3) sp.fail(toks[0], "expected `.reg .TYPE NAME`");
      std::size_t k = 1;
      if (toks[k].text.rfind(".v", 0) == 0) sp.fail(toks[k], "vector registers (.reg .v2) are not supported");
      Type ty = sp.need_type(toks[k], toks[k].text.substr(1));
      for (++k; k < toks.size(); ++k) sp.declare_regs(toks[k], toks[k].text, ty, true);
    } else if (d == ".local") {
      local_array(it, toks, prog, sp);
    } else if (d == ".param") {  // a call's argument or result (ptx_calls.h): a register its ld/st.param move
      if (toks.size() != 3 || toks[2].text.find('[') != std::string::npos)
        sp.fail(toks[0], "only scalar `.param .TYPE NAME` call arguments are supported (not arrays or structs by value)");
      Type ty = sp.need_type(toks[1], toks[1].text.substr(1));
      const std::string reg = "__pv_" + toks[2].text + "_" + type_name(ty);
      sp.declare_regs(toks[2], reg, ty, true);
      sp.add_param_alias(toks[2].text, std::uint16_t(sp.register_index(reg)));
    } else if (d == ".shared" || d == ".extern" || d == ".pragma" || d == ".loc" || d == ".file" || d == ".maxnreg") {
      continue;  // shared arrays were laid out before
    } else if (d[0] == '.') {
      sp.fail(toks[0], "unsupported directive '" + d + "' in a kernel body");
    } else {
      std::string text;  // as written, its whitespace runs one space (reports quote it)
      for (char c : it.text) {
        const bool space = c == ' ' || c == '\t';
        if (!(space && (text.empty() || text.back() == ' '))) text += space ? ' ' : c;
      }
      sp.instruction(toks, text);
    }
  }
}

}  // namespace

Program parse_ptx(const std::string& source, const std::string& file, const std::string& entry) {
  Module m{file, scan_ptx(source)};
  std::vector<PtxEntry> entries;
  std::vector<std::size_t> headers;
  for (std::size_t i = 0; i < m.items.size(); ++i)
    if (is_entry(m.items[i])) {
      PtxEntry e;
      read_header(m, m.items[i], e, nullptr);
      entries.push_back(e);
      headers.push_back(i);
    }
  const std::size_t k = choose_entry(entries, entry, file);
  const std::size_t header = headers[k];
  if (header + 1 >= m.items.size() || m.items[header + 1].kind != PtxItem::open)
    m.fail(m.items[header], "an .entry without a body");
  const std::size_t open = header + 1, close = block_end(m, open);
  Program prog;
  prog.file = file;
  StatementParser sp(prog);
  PtxEntry e;
  read_header(m, m.items[header], e, &prog);
  prog.name = e.short_name;
  bind_params(e, prog, sp);
  layout_shared(m, open, close, prog, sp);
  Module body{file, inline_calls(m.items, open + 1, close, file)};  // calls to .func inlined (ptx_calls.h)
  body.items.insert(body.items.begin(), m.items[open]);
  body.items.push_back(m.items[close]);
  read_body(body, 0, body.items.size() - 1, prog, sp);
  sp.at_line(m.items[close].line);
  sp.finish();  // branch targets resolved: the blocks the scheduler keeps in place
  lower_like_ptxas(prog);
  schedule_basic_blocks(prog);
  compute_reconvergence(prog);
  prog.live_registers = estimate_live_registers(prog);
  return prog;
}

std::vector<PtxEntry> list_ptx_entries(const std::string& source, const std::string& file) {
  Module m{file, scan_ptx(source)};
  std::vector<PtxEntry> out;
  for (const auto& it : m.items)
    if (is_entry(it)) {
      PtxEntry e;
      read_header(m, it, e, nullptr);
      out.push_back(e);
    }
  return out;
}

std::string describe_entries(const std::vector<PtxEntry>& entries) {
  std::string out;
  for (const auto& e : entries) {
    out += fmt::format("{}{}\n", e.demangled, e.demangled != e.name ? "   [" + e.name + "]" : "");
    for (std::size_t i = 0; i < e.params.size(); ++i) {
      const auto& p = e.params[i];
      bool buffer = false;
      auto t = p.cpp_type.empty() ? std::nullopt : cpp_type(p.cpp_type, buffer);
      std::string what = buffer && t ? fmt::format("buffer of {}: --arg {}={}[COUNT]:INIT", type_name(*t), i, type_name(*t))
                         : t         ? fmt::format("scalar {}: --arg {}=VALUE", type_name(*t), i)
                         : p.ptx_type == Type::u64 ? fmt::format("a pointer or a 64-bit scalar: --arg {}=TYPE[COUNT]:INIT or --arg {}=VALUE", i, i)
                                                   : fmt::format("scalar {}: --arg {}=VALUE", type_name(p.ptx_type), i);
      out += fmt::format("  {}: {:<20} {}\n", i, p.cpp_type.empty() ? std::string(".") + type_name(p.ptx_type) : p.cpp_type, what);
    }
  }
  return out;
}

}  // namespace hwsim::warp
