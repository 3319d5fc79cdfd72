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

#include "models/gpu/warp/statement_parser.h"
#include "sim/error.h"
#include "sim/input_file.h"

namespace hwsim::warp {
namespace {

// The .hwk reader: one statement per line, its own directives (.kernel, .reg, .param, .shared),
// instructions by the statement parser.
class Parser {
 public:
  Parser(const std::string& source, const std::string& file) : src_(source), sp_(prog_) { prog_.file = file; }

  Program run() {
    std::istringstream in(src_);
    std::string line;
    while (std::getline(in, line)) {
      sp_.at_line(++line_no_);
      parse_line(line);
    }
    if (prog_.name.empty()) sp_.fail(1, 1, "missing `.kernel NAME` line");
    sp_.finish();
    return std::move(prog_);
  }

 private:
  const std::string& src_;
  Program prog_;
  StatementParser sp_;
  int line_no_ = 0;

  void parse_line(std::string line) {
    for (const char* c : {"//", "#"}) {
      auto p = line.find(c);
      if (p != std::string::npos) line.erase(p);
    }
    auto toks = tokenize(line, prog_.file, line_no_);
    if (toks.empty()) return;
    // labels: "NAME:" possibly followed by an instruction
    while (!toks.empty() && toks[0].text.size() > 1 && toks[0].text.back() == ':') {
      sp_.label(toks[0], toks[0].text.substr(0, toks[0].text.size() - 1));
      toks.erase(toks.begin());
    }
    if (toks.empty()) return;
    if (toks[0].text[0] == '.') return directive(toks);
    std::string trimmed = line;
    while (!trimmed.empty() && std::isspace((unsigned char)trimmed.back())) trimmed.pop_back();
    std::size_t a = trimmed.find_first_not_of(" \t");
    sp_.instruction(toks, a == std::string::npos ? "" : trimmed.substr(a));
  }

  void directive(const std::vector<Token>& t) {
    const std::string& d = t[0].text;
    if (d == ".kernel") {
      if (t.size() != 2) sp_.fail(t[0], "expected `.kernel NAME`");
      prog_.name = t[1].text;
    } else if (d == ".reg") {
      if (t.size() < 3) sp_.fail(t[0], "expected `.reg TYPE NAME[, NAME<N>...]`");
      Type ty = sp_.need_type(t[1], t[1].text);
      for (std::size_t i = 2; i < t.size(); ++i) sp_.declare_regs(t[i], t[i].text, ty, false);
    } else if (d == ".param") {
      param(t);
    } else if (d == ".shared") {
      // .shared TYPE NAME[COUNT]
      if (t.size() != 3) sp_.fail(t[0], "expected `.shared TYPE NAME[COUNT]`");
      SharedDecl s;
      s.type = sp_.need_type(t[1], t[1].text);
      auto lb = t[2].text.find('[');
      if (lb == std::string::npos || t[2].text.back() != ']') sp_.fail(t[2], "expected NAME[COUNT]");
      s.name = t[2].text.substr(0, lb);
      long long count = std::atoll(t[2].text.c_str() + lb + 1);
      if (count <= 0) sp_.fail(t[2], "shared array needs a positive element count");
      s.bytes = std::uint64_t(count) * std::uint64_t(type_bytes(s.type));
      s.offset = (prog_.shared_bytes + 15) / 16 * 16;
      prog_.shared_bytes = s.offset + s.bytes;
      s.reg = sp_.add_reg(t[2], s.name, Type::u32);
      prog_.shared.push_back(s);
    } else {
      sp_.fail(t[0], "unknown directive '" + d + "' (.kernel, .reg, .param, .shared)");
    }
  }

  // .param buf NAME TYPE [= SPEC]   |   .param TYPE NAME [= VALUE]
  void param(const std::vector<Token>& t) {
    if (t.size() < 3) sp_.fail(t[0], "expected `.param buf NAME TYPE [= SPEC]` or `.param TYPE NAME [= VALUE]`");
    KernelParam p;
    std::size_t next = 3;
    if (t[1].text == "buf") {
      if (t.size() < 4) sp_.fail(t[0], "expected `.param buf NAME TYPE [= SPEC]`");
      p.buffer = true;
      p.name = t[2].text;
      p.type = sp_.need_type(t[3], t[3].text);
      next = 4;
      p.reg = sp_.add_reg(t[2], p.name, Type::u64);
    } else {
      p.type = sp_.need_type(t[1], t[1].text);
      p.name = t[2].text;
      p.reg = sp_.add_reg(t[2], p.name, p.type);
    }
    if (next < t.size()) {
      if (t[next].text != "=" || next + 1 >= t.size()) sp_.fail(t[next], "expected `= DEFAULT`");
      p.default_spec = t[next + 1].text;
    }
    prog_.params.push_back(p);
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
