#include "models/gpu/warp/kernel_args.h"

#include <cmath>

#include <bit>
#include <optional>
#include <fmt/format.h>

#include "models/gpu/warp/execute.h"
#include "models/gpu/warp/statement_parser.h"
#include "sim/error.h"

namespace hwsim::warp {

void parse_dims(const std::string& text, const char* what, std::int64_t dims[3]) {
  std::int64_t d[3] = {1, 1, 1};
  std::size_t start = 0;
  for (int k = 0;; ++k) {
    auto comma = text.find(',', start);
    std::string part = text.substr(start, comma - start);
    char* end = nullptr;
    long long v = std::strtoll(part.c_str(), &end, 10);
    if (k > 2 || part.empty() || *end || v < 1)
      usage_error(fmt::format("{} '{}': expected X[,Y[,Z]], each a whole number of at least 1", what, text));
    d[k] = v;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  for (int k = 0; k < 3; ++k) dims[k] = d[k];
}

std::pair<std::string, std::string> parse_arg(const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    usage_error("--arg '" + text + "': expected NAME=VALUE (e.g. stride=32 or a=threads:iota)");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

namespace {

std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    auto p = s.find(c, start);
    out.push_back(s.substr(start, p - start));
    if (p == std::string::npos) return out;
    start = p + 1;
  }
}

struct Binder {
  const Program& prog;
  const LaunchArgs& launch;
  std::map<std::string, double> scalars;

  [[noreturn]] void fail(const std::string& param, const std::string& what) const {
    workload_error(fmt::format("{}: argument {}: {}", prog.name, param, what));
  }

  double product(const std::string& param, const std::string& expr) const {
    double v = 1;
    for (const auto& term : split(expr, '*')) {
      if (term.empty()) fail(param, "empty term in '" + expr + "'");
      char* end = nullptr;
      double x = std::strtod(term.c_str(), &end);
      if (*end == 0) { v *= x; continue; }
      if (term == "grid") v *= double(launch.grid);
      else if (term == "block") v *= double(launch.block);
      else if (term == "threads") v *= double(launch.grid * launch.block);
      else if (auto it = scalars.find(term); it != scalars.end()) v *= it->second;
      else fail(param, "unknown name '" + term + "' in '" + expr + "' (numbers, grid, block, threads, scalar parameters)");
    }
    return v;
  }
};

}  // namespace

namespace {

// The spec `--arg` gave parameter i (by name or by position), or its declared default.
std::map<std::size_t, std::string> specs_by_param(const Program& prog, const LaunchArgs& launch) {
  std::map<std::size_t, std::string> out;
  for (const auto& [name, spec] : launch.args) {
    std::size_t found = prog.params.size();
    for (std::size_t i = 0; i < prog.params.size(); ++i)
      if (prog.params[i].name == name) found = i;
    if (found == prog.params.size() && !name.empty() && name.find_first_not_of("0123456789") == std::string::npos &&
        std::stoull(name.substr(0, 9)) < prog.params.size())
      found = std::stoull(name);
    if (found == prog.params.size()) {
      std::string names;
      for (const auto& p : prog.params) names += (names.empty() ? "" : ", ") + p.name;
      workload_error(fmt::format("{}: no parameter named '{}' (parameters: {}{})", prog.name, name, names.empty() ? "none" : names,
                                 names.empty() ? "" : "; or their positions from 0"));
    }
    if (out.count(found)) workload_error(fmt::format("{}: parameter {} is given twice", prog.name, prog.params[found].name));
    out[found] = spec;
  }
  return out;
}

// An element type a buffer may hold (not a predicate or a pair).
bool is_scalar_element(Type t) { return t != Type::pred && t != Type::f16x2 && t != Type::bf16x2; }

// "TYPE[COUNT]REST" into (TYPE, "COUNTREST"); nullopt when the spec names no type.
std::optional<std::pair<Type, std::string>> typed_spec(const std::string& s) {
  auto lb = s.find('[');
  auto rb = s.find(']');
  if (lb == std::string::npos || lb == 0 || rb == std::string::npos || rb < lb) return std::nullopt;
  auto t = ptx_type(s.substr(0, lb));
  if (!t || !is_scalar_element(*t)) return std::pair{Type::pred, s.substr(0, lb)};  // pred: an unknown type name, reported by the caller
  return std::pair{*t, s.substr(lb + 1, rb - lb - 1) + s.substr(rb + 1)};
}

}  // namespace

std::vector<std::uint64_t> bind_args(const Program& prog, const LaunchArgs& launch, GlobalMemory& memory) {
  const auto given = specs_by_param(prog, launch);
  Binder b{prog, launch, {}};
  std::vector<std::uint64_t> values(prog.params.size(), 0);
  std::vector<KernelParam> params = prog.params;  // untyped PTX pointers become buffers here
  auto spec_of = [&](const KernelParam& p) {
    const std::size_t i = std::size_t(&p - params.data());
    auto it = given.find(i);
    std::string s = it != given.end() ? it->second : p.default_spec;
    if (s.empty() && p.untyped && !p.buffer) s = "0";  // a pointer of unknown type not given: null (Triton's scratch)
    if (s.empty())
      b.fail(p.name, "missing (give --arg " + p.name + (p.buffer || p.untyped ? "=TYPE[COUNT]:INIT" : "=VALUE") + ")");
    return s;
  };
  for (auto& p : params) {
    auto it = given.find(std::size_t(&p - params.data()));
    auto typed = it == given.end() ? std::nullopt : typed_spec(it->second);
    if (typed && typed->first == Type::pred) b.fail(p.name, "unknown element type '" + typed->second + "' (u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64)");
    if (typed && !p.buffer && !p.untyped) b.fail(p.name, fmt::format("a scalar {}: give a value, not a buffer", type_name(p.type)));
    if (typed && p.buffer && typed->first != p.type)
      b.fail(p.name, fmt::format("its buffer is of {} (the kernel's pointer type), not {}", type_name(p.type), type_name(typed->first)));
    if (typed && p.untyped) p.buffer = true, p.type = typed->first;
  }
  for (std::size_t i = 0; i < params.size(); ++i) {  // scalars first: buffer sizes may use them
    const auto& p = params[i];
    if (p.buffer) continue;
    std::string s = spec_of(p);
    double v = 0;
    if (is_float(p.type)) {
      char* end = nullptr;
      v = std::strtod(s.c_str(), &end);
      if (*end || s.empty()) b.fail(p.name, "'" + s + "' is not a number");
      switch (p.type) {
        case Type::f64: values[i] = std::bit_cast<std::uint64_t>(v); break;
        case Type::f16: values[i] = float_to_half(float(v)); break;
        case Type::bf16: values[i] = float_to_bf16(float(v)); break;
        default: values[i] = std::bit_cast<std::uint32_t>(float(v)); break;
      }
    } else {
      v = b.product(p.name, s);
      // A whole number the parameter's type holds (checked before any cast: NaN, inf or 1e400 are
      // not whole numbers, and u32 n=4294967297 is not 1).
      const bool sgn = is_signed(p.type);
      const int bits = type_bytes(p.type) * 8;
      double lo = sgn ? -std::ldexp(1.0, bits - 1) : 0;
      double hi = std::ldexp(1.0, sgn ? bits - 1 : bits);
      if (!std::isfinite(v) || v != std::trunc(v)) b.fail(p.name, "'" + s + "' is not a whole number");
      if (v < lo || v >= hi) b.fail(p.name, "'" + s + "' is out of the range of its type " + type_name(p.type));
      values[i] = v < 0 ? std::uint64_t(std::int64_t(v)) : std::uint64_t(v);
      if (bits < 64) values[i] &= (std::uint64_t(1) << bits) - 1;
      if (sgn && bits < 32 && v < 0) values[i] |= 0xffffffffull & ~((std::uint64_t(1) << bits) - 1);  // held sign-extended to 32 bits
    }
    b.scalars[p.name] = v;
  }
  for (std::size_t i = 0; i < params.size(); ++i) {
    const auto& p = params[i];
    if (!p.buffer) continue;
    std::string spec = spec_of(p);
    if (auto typed = typed_spec(spec)) spec = typed->second;
    auto parts = split(spec, ':');
    if (parts.size() > 3) b.fail(p.name, "expected [TYPE[COUNT]|COUNT][:INIT[:SEED]] (INIT: zeros, ones, iota, random[:SEED], sorted, chase, fill:V)");
    double count = b.product(p.name, parts[0]);
    if (!(count >= 1 && count <= 1e12) || count != std::trunc(count))
      b.fail(p.name, "element count must be a whole number between 1 and 1e12");
    Buffer buf;
    buf.name = p.name;
    buf.type = p.type;
    buf.count = std::uint64_t(count);
    if (parts.size() > 1) {
      auto init = parse_init(parts[1]);
      if (!init) b.fail(p.name, "unknown contents '" + parts[1] + "' (zeros, ones, iota, random, sorted, chase, fill:V)");
      buf.init = *init;
    }
    if (parts.size() > 2 && buf.init == Init::fill) {
      char* end = nullptr;
      buf.fill = std::strtod(parts[2].c_str(), &end);
      if (*end || parts[2].empty()) b.fail(p.name, "fill value '" + parts[2] + "' is not a number");
    } else if (parts.size() > 2) {
      char* end = nullptr;
      buf.seed = std::strtoull(parts[2].c_str(), &end, 10);
      if (*end || parts[2].empty()) b.fail(p.name, "seed '" + parts[2] + "' is not a whole number");
    } else if (buf.init == Init::fill) {
      b.fail(p.name, "fill needs a value (fill:V)");
    }
    if (buf.init == Init::chase && (std::popcount(buf.bytes() / 128) != 1 || buf.bytes() < 256))
      b.fail(p.name, "chase needs a power-of-two number of 128-byte slots");
    values[i] = memory.add(std::move(buf));
  }
  return values;
}

}  // namespace hwsim::warp
