#pragma once
// One kernel's statements into a Program: registers, symbols, labels and instructions, shared by
// the .hwk reader (parser.cpp: one statement per line) and the PTX reader (ptx_reader.cpp: PTX as
// nvcc, clang and Triton write it). The instruction grammar is PTX's; .hwk is a readable subset
// of it. Errors are UserError(workload) lines "FILE:LINE:COL: what is wrong".
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "models/gpu/warp/isa.h"

namespace hwsim::warp {

struct Token {
  std::string text;
  int col = 0;  // 1-based
};

// Splits on whitespace and commas; keeps [..] and {..} groups as one token each. `line` names
// the line in errors.
std::vector<Token> tokenize(const std::string& s, const std::string& file, int line);

// A PTX type name without its dot ("u32", "b16", "f64", "pred"; .bN read as the unsigned types).
std::optional<Type> ptx_type(const std::string& name);

// The instruction families the warp model runs, for error lines.
std::string supported_instructions();

class StatementParser {
 public:
  explicit StatementParser(Program& program) : prog_(program) {}

  [[noreturn]] void fail(int line, int col, const std::string& what) const;
  [[noreturn]] void fail(const Token& t, const std::string& what) const { fail(line_, t.col, what); }
  void at_line(int line) { line_ = line; }
  int line() const { return line_; }

  std::uint16_t add_reg(const Token& t, const std::string& name, Type type);
  // Declares NAME, or NAME<N> as NAME0..NAME(N-1) (PTX's register arrays). A PTX nested scope may
  // declare a name again with the same type: the one register serves both.
  void declare_regs(const Token& t, std::string name, Type type, bool allow_redeclare);
  // A name that reads as an immediate (a PTX shared array's offset within the block's shared memory).
  void add_symbol(const std::string& name, std::uint64_t value) { symbols_[name] = value; }
  // A PTX kernel parameter: `ld.param` from [NAME] reads register `reg`.
  void add_param_alias(const std::string& name, std::uint16_t reg) { params_[name] = reg; }
  bool has_symbol(const std::string& name) const { return symbols_.count(name) > 0; }
  int register_index(const std::string& name) const { return reg_index_.at(name); }
  std::optional<Type> type_of(const std::string& s) const;
  Type need_type(const Token& t, const std::string& s) const;

  void label(const Token& t, const std::string& name);
  // One instruction statement (predicate guard included), `text` as written for reports.
  void instruction(std::vector<Token> t, const std::string& text);
  // Resolves branch targets, appends an exit if the code can fall off its end, computes
  // reconvergence points.
  void finish();

 private:
  Program& prog_;
  int line_ = 0;
  std::map<std::string, int> reg_index_;
  std::map<std::string, int> labels_;
  std::map<std::string, std::uint64_t> symbols_;
  std::map<std::string, std::uint16_t> params_;
  std::vector<std::tuple<int, std::string, int, int>> fixups_;  // instr, label, col, line

  // The instruction being parsed: its mnemonic's dot-separated parts.
  struct Mnemonic {
    std::vector<std::string> parts;
    bool has(const char* mod) const;
    bool untyped = false;    // a .bN type: registers are checked by size only
  };

  int reg_of(const Token& t, std::string name) const;
  void check_reg(const Token& t, int r, Type want, bool by_size = false) const;
  std::uint16_t dst_reg(const Token& t, Type want, bool by_size = false);
  Operand source(const Token& t, Type want, bool by_size = false);
  Operand special(const Token& t, const std::string& name, Type want) const;
  Operand immediate(const Token& t, Type want) const;
  void address(const Token& t, Instr& in, bool any_int);
  std::vector<Token> vector_regs(const Token& t);
  void expect_count(const std::vector<Token>& t, std::size_t n, const std::string& form) const;
  Type last_type(const Mnemonic& m, Type dflt, bool* untyped = nullptr) const;

  // Instruction families (statement_instructions.cpp); each fills `in` from tokens `t`.
  bool arithmetic(const std::vector<Token>& t, const Mnemonic& m, Instr& in);
  void compare(const std::vector<Token>& t, const Mnemonic& m, Instr& in);
  void convert(const std::vector<Token>& t, const Mnemonic& m, Instr& in);
  void memory(const std::vector<Token>& t, const Mnemonic& m, Instr& in);
  void param_load(const std::vector<Token>& t, const Mnemonic& m, Instr& in);
  void param_store(const std::vector<Token>& t, const Mnemonic& m, Instr& in);  // st.param: a call's argument
  void atomic(const std::vector<Token>& t, const Mnemonic& m, Instr& in, bool reduction);
  void shuffle(const std::vector<Token>& t, const Mnemonic& m, Instr& in);
  void vote(const std::vector<Token>& t, const Mnemonic& m, Instr& in);
  bool bits(const std::vector<Token>& t, const Mnemonic& m, Instr& in);
  // Matrix and asynchronous-copy instructions (statement_tensor.cpp).
  void mma(const std::vector<Token>& t, const Mnemonic& m, Instr& in);
  void wgmma(const std::vector<Token>& t, const Mnemonic& m, Instr& in);
  void ldmatrix(const std::vector<Token>& t, const Mnemonic& m, Instr& in);
  void async_copy(const std::vector<Token>& t, const Mnemonic& m, Instr& in);
  bool control(const std::vector<Token>& t, const Mnemonic& m, Instr& in);
};

}  // namespace hwsim::warp
