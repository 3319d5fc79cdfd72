// Inlining of calls to .func (ptx_calls.h).
#include "models/gpu/warp/ptx_calls.h"

#include <cctype>
#include <fmt/format.h>
#include <map>
#include <set>

#include "sim/error.h"

namespace hwsim::warp {
namespace {

constexpr int kMaxDepth = 16;       // nested calls deeper than this are taken for recursion
constexpr int kMaxInlined = 10000;  // calls inlined into one kernel at most (a call tree that explodes)

struct FuncParam {
  std::string type;  // ".b32"
  std::string name;
};

struct Func {
  std::string name;
  std::vector<FuncParam> rets, params;
  std::size_t open = 0, close = 0;  // its body's braces in the module's items
  int index = 0;
};

std::string squeeze(const std::string& s) {  // whitespace runs (newlines too) into one space, trimmed
  std::string o;
  for (char c : s) {
    const bool sp = std::isspace((unsigned char)c);
    if (!(sp && (o.empty() || o.back() == ' '))) o += sp ? ' ' : c;
  }
  while (!o.empty() && o.back() == ' ') o.pop_back();
  return o;
}

// "(.param .b32 a, .param .b64 b)" starting at s[at] == '(' into its parameters; `at` moves past ')'.
std::vector<FuncParam> param_list(const std::string& s, std::size_t& at, const std::string& where) {
  std::vector<FuncParam> out;
  const std::size_t close = s.find(')', at);
  if (close == std::string::npos) workload_error(where + ": missing ')' in a .func header");
  std::string body = s.substr(at + 1, close - at - 1);
  at = close + 1;
  std::size_t p = 0;
  while (p < body.size()) {
    std::size_t c = body.find(',', p);
    std::string one = squeeze(body.substr(p, c == std::string::npos ? std::string::npos : c - p));
    p = c == std::string::npos ? body.size() : c + 1;
    if (one.empty()) continue;
    std::vector<std::string> w;
    for (std::size_t q = 0; q < one.size();) {
      std::size_t e = one.find(' ', q);
      w.push_back(one.substr(q, e == std::string::npos ? std::string::npos : e - q));
      q = e == std::string::npos ? one.size() : e + 1;
    }
    if (w.size() != 3 || w[0] != ".param" || w[2].find('[') != std::string::npos)
      workload_error(where + ": .func parameter '" + one + "': only scalar `.param .TYPE NAME` parameters are supported");
    out.push_back({w[1], w[2]});
  }
  return out;
}

std::map<std::string, Func> find_funcs(const std::vector<PtxItem>& items, const std::string& file) {
  std::map<std::string, Func> out;
  for (std::size_t i = 0; i + 1 < items.size(); ++i) {
    const PtxItem& it = items[i];
    const std::size_t f = it.text.find(".func");
    if (it.kind != PtxItem::statement || f == std::string::npos || items[i + 1].kind != PtxItem::open) continue;
    const std::string where = fmt::format("{}:{}:{}", file, it.line, it.col);
    Func fn;
    std::size_t at = it.text.find_first_not_of(" \t\r\n", f + 5);
    if (at != std::string::npos && it.text[at] == '(') fn.rets = param_list(it.text, at, where);
    at = at == std::string::npos ? at : it.text.find_first_not_of(" \t\r\n", at);
    if (at == std::string::npos) workload_error(where + ": expected `.func [(RESULT)] NAME(PARAMS)`");
    const std::size_t open = it.text.find('(', at);
    fn.name = squeeze(it.text.substr(at, open == std::string::npos ? std::string::npos : open - at));
    if (open != std::string::npos) {
      at = open;
      fn.params = param_list(it.text, at, where);
    }
    int depth = 0;
    fn.open = i + 1;
    for (std::size_t j = i + 1; j < items.size(); ++j) {
      if (items[j].kind == PtxItem::open) ++depth;
      if (items[j].kind == PtxItem::close && --depth == 0) { fn.close = j; break; }
    }
    fn.index = int(out.size());
    out[fn.name] = fn;
  }
  return out;
}

bool ident_char(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '$'; }

bool special_register(const std::string& n) {
  static const std::set<std::string> s = {"tid", "ntid", "ctaid", "nctaid", "laneid", "warpid", "nwarpid", "smid",
                                          "nsmid", "gridid", "clock", "clock64", "lanemask_lt", "lanemask_le",
                                          "lanemask_eq", "lanemask_ge", "lanemask_gt", "globaltimer"};
  return s.count(n) > 0;
}

// `s` with its registers %X renamed %PREFIX_X (special registers kept) and whole-word names in
// `words` renamed by it.
std::string rename(const std::string& s, const std::string& prefix, const std::map<std::string, std::string>& words) {
  std::string o;
  for (std::size_t i = 0; i < s.size();) {
    if (!ident_char(s[i]) && s[i] != '%') { o += s[i++]; continue; }
    std::size_t j = i + (s[i] == '%' ? 1 : 0);
    while (j < s.size() && ident_char(s[j])) ++j;
    std::string w = s.substr(i, j - i);
    if (w[0] == '%' && w.size() > 1 && !special_register(w.substr(1))) o += "%" + prefix + w.substr(1);
    else if (auto it = words.find(w); it != words.end()) o += it->second;
    else o += w;
    i = j;
  }
  return o;
}

struct Call {
  std::vector<std::string> rets, args;
  std::string name;
};

// "call[.uni] (r0), name, (a0, a1)" / "call name, (a0)" / "call name"
Call parse_call(const std::string& text, const std::string& where) {
  std::string s = squeeze(text);
  s = s.substr(s.find(' ') == std::string::npos ? s.size() : s.find(' ') + 1);
  std::vector<std::string> groups;  // top-level comma-separated parts, parentheses kept
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      if (!squeeze(cur).empty()) groups.push_back(squeeze(cur));
      cur.clear();
    }
    else cur += c;
  }
  if (!squeeze(cur).empty()) groups.push_back(squeeze(cur));
  auto names = [](const std::string& g) {
    std::vector<std::string> out;
    std::string x;
    for (char c : g.substr(1, g.size() - 2)) {
      if (c == ',') { if (!squeeze(x).empty()) out.push_back(squeeze(x)); x.clear(); }
      else x += c;
    }
    if (!squeeze(x).empty()) out.push_back(squeeze(x));
    return out;
  };
  Call c;
  std::size_t k = 0;
  if (k < groups.size() && groups[k].front() == '(') c.rets = names(groups[k++]);
  if (k >= groups.size()) workload_error(where + ": expected `call (RET), NAME, (ARGS)`");
  c.name = groups[k++];
  if (k < groups.size() && groups[k].front() == '(') c.args = names(groups[k++]);
  if (k != groups.size()) workload_error(where + ": indirect calls (a prototype operand) are not supported");
  return c;
}

class Inliner {
 public:
  Inliner(const std::vector<PtxItem>& items, const std::string& file) : items_(items), file_(file), funcs_(find_funcs(items, file)) {}

  void expand(std::size_t first, std::size_t last, const std::string& prefix, const std::map<std::string, std::string>& words,
              int depth, std::vector<PtxItem>& out) {
    for (std::size_t i = first; i < last; ++i) {
      PtxItem it = items_[i];
      if (!prefix.empty()) it.text = rename(it.text, prefix, words);
      const std::string head = it.text.substr(0, it.text.find_first_of(" \t\r\n"));
      if (it.kind == PtxItem::statement && (head == "call" || head.rfind("call.", 0) == 0)) {
        call(it, depth, out);
        continue;
      }
      if (it.kind == PtxItem::statement && !prefix.empty() && (head == "ret" || head == "ret.uni") && !ret_label_.empty()) {
        it.text = "bra.uni " + ret_label_;
      }
      out.push_back(it);
    }
  }

 private:
  void emit(std::vector<PtxItem>& out, const PtxItem& at, std::string text) {
    PtxItem s = at;
    s.kind = PtxItem::statement;
    s.text = std::move(text);
    out.push_back(s);
  }

  void call(const PtxItem& at, int depth, std::vector<PtxItem>& out) {
    const std::string where = fmt::format("{}:{}:{}", file_, at.line, at.col);
    const Call c = parse_call(at.text, where);
    auto f = funcs_.find(c.name);
    if (f == funcs_.end()) workload_error(where + ": call to '" + c.name + "', a .func without a body in this module (only calls to .func defined in the module are supported)");
    const Func& fn = f->second;
    if (depth >= kMaxDepth) workload_error(where + ": call to '" + c.name + "': recursion is not supported (calls are inlined)");
    if (c.args.size() != fn.params.size() || c.rets.size() != fn.rets.size())
      workload_error(where + fmt::format(": call to '{}' passes {} arguments and {} results; it takes {} and {}", c.name,
                                         c.args.size(), c.rets.size(), fn.params.size(), fn.rets.size()));
    if (calls_ >= kMaxInlined) workload_error(where + fmt::format(": more than {} calls to inline", kMaxInlined));
    const int k = calls_++;
    const std::string prefix = fmt::format("__f{}_", fn.index);
    std::map<std::string, std::string> words;  // the callee's labels, per call
    for (std::size_t j = fn.open; j < fn.close; ++j)
      if (items_[j].kind == PtxItem::label) words[items_[j].text] = items_[j].text + fmt::format("__c{}", k);
    const std::string saved = ret_label_;
    ret_label_ = fmt::format("$__ret{}", k);
    emit(out, at, "{");
    out.back().kind = PtxItem::open;
    // arguments: caller's .param → a register → the callee's .param
    auto copy = [&](const FuncParam& p, const std::string& from, const std::string& to, int i, const char* tag) {
      const std::string reg = fmt::format("%__c{}_{}{}", k, tag, i);
      emit(out, at, ".reg " + p.type + " " + reg);
      emit(out, at, fmt::format("ld.param{} {}, [{}]", p.type, reg, from));
      emit(out, at, fmt::format("st.param{} [{}], {}", p.type, to, reg));
    };
    for (std::size_t i = 0; i < fn.params.size(); ++i) {
      emit(out, at, ".param " + fn.params[i].type + " " + fn.params[i].name);
      copy(fn.params[i], c.args[i], fn.params[i].name, int(i), "a");
    }
    for (const auto& r : fn.rets) emit(out, at, ".param " + r.type + " " + r.name);
    expand(fn.open + 1, fn.close, prefix, words, depth + 1, out);
    PtxItem end = at;
    end.kind = PtxItem::label;
    end.text = ret_label_;
    out.push_back(end);
    for (std::size_t i = 0; i < fn.rets.size(); ++i) copy(fn.rets[i], fn.rets[i].name, c.rets[i], int(i), "r");
    emit(out, at, "}");
    out.back().kind = PtxItem::close;
    ret_label_ = saved;
  }

  const std::vector<PtxItem>& items_;
  std::string file_;
  std::map<std::string, Func> funcs_;
  std::string ret_label_;
  int calls_ = 0;
};

}  // namespace

std::vector<PtxItem> inline_calls(const std::vector<PtxItem>& items, std::size_t first, std::size_t last,
                                  const std::string& file) {
  std::vector<PtxItem> out;
  Inliner in(items, file);
  in.expand(first, last, "", {}, 0, out);
  return out;
}

}  // namespace hwsim::warp
