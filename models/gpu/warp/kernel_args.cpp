#include "models/gpu/warp/kernel_args.h"

#include <cmath>

#include <bit>
#include <fmt/format.h>

#include "sim/error.h"

namespace hwsim::warp {

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

std::vector<std::uint64_t> bind_args(const Program& prog, const LaunchArgs& launch, GlobalMemory& memory) {
  for (const auto& [name, spec] : launch.args) {
    bool known = false;
    for (const auto& p : prog.params) known |= p.name == name;
    if (!known) {
      std::string names;
      for (const auto& p : prog.params) names += (names.empty() ? "" : ", ") + p.name;
      workload_error(fmt::format("{}: no parameter named '{}' (parameters: {})", prog.name, name, names));
    }
  }
  Binder b{prog, launch, {}};
  std::vector<std::uint64_t> values(prog.params.size(), 0);
  auto spec_of = [&](const KernelParam& p) {
    auto it = launch.args.find(p.name);
    std::string s = it != launch.args.end() ? it->second : p.default_spec;
    if (s.empty()) b.fail(p.name, "missing (give --arg " + p.name + "=...)");
    return s;
  };
  for (std::size_t i = 0; i < prog.params.size(); ++i) {  // scalars first: buffer sizes may use them
    const auto& p = prog.params[i];
    if (p.buffer) continue;
    std::string s = spec_of(p);
    double v = 0;
    if (p.type == Type::f32) {
      char* end = nullptr;
      v = std::strtod(s.c_str(), &end);
      if (*end) b.fail(p.name, "'" + s + "' is not a number");
      values[i] = std::bit_cast<std::uint32_t>(float(v));
    } else {
      v = b.product(p.name, s);
      // A whole number the parameter's type holds (checked before any cast: NaN, inf or 1e400 are
      // not whole numbers, and u32 n=4294967297 is not 1).
      bool is_signed = p.type == Type::s32 || p.type == Type::s64;
      double lo = is_signed ? (type_bytes(p.type) == 4 ? -0x1p31 : -0x1p63) : 0;
      double hi = type_bytes(p.type) == 4 ? (is_signed ? 0x1p31 : 0x1p32) : (is_signed ? 0x1p63 : 0x1p64);
      if (!std::isfinite(v) || v != std::trunc(v)) b.fail(p.name, "'" + s + "' is not a whole number");
      if (v < lo || v >= hi) b.fail(p.name, "'" + s + "' is out of the range of its type " + type_name(p.type));
      values[i] = v < 0 ? std::uint64_t(std::int64_t(v)) : std::uint64_t(v);
      if (type_bytes(p.type) == 4) values[i] &= 0xffffffffull;
    }
    b.scalars[p.name] = v;
  }
  for (std::size_t i = 0; i < prog.params.size(); ++i) {
    const auto& p = prog.params[i];
    if (!p.buffer) continue;
    auto parts = split(spec_of(p), ':');
    if (parts.size() > 3) b.fail(p.name, "expected COUNT[:INIT[:SEED]]");
    double count = b.product(p.name, parts[0]);
    if (!(count >= 1 && count <= 1e12) || count != std::trunc(count))
      b.fail(p.name, "element count must be a whole number between 1 and 1e12");
    Buffer buf;
    buf.name = p.name;
    buf.type = p.type;
    buf.count = std::uint64_t(count);
    if (parts.size() > 1) {
      auto init = parse_init(parts[1]);
      if (!init) b.fail(p.name, "unknown contents '" + parts[1] + "' (zeros, ones, iota, random, sorted, chase)");
      buf.init = *init;
    }
    if (parts.size() > 2) {
      char* end = nullptr;
      buf.seed = std::strtoull(parts[2].c_str(), &end, 10);
      if (*end || parts[2].empty()) b.fail(p.name, "seed '" + parts[2] + "' is not a whole number");
    }
    if (buf.init == Init::chase && (std::popcount(buf.bytes() / 128) != 1 || buf.bytes() < 256))
      b.fail(p.name, "chase needs a power-of-two number of 128-byte slots");
    values[i] = memory.add(std::move(buf));
  }
  return values;
}

}  // namespace hwsim::warp
