// load_config(): TOML file → `extends` chain → --set overrides → validated, typed Config.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <fmt/format.h>
#include <set>
#include <sstream>
#include <toml++/toml.h>

#include "sim/config/config.h"
#include "sim/config/toml_text.h"
#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "sim/input_file.h"

namespace hwsim {
namespace fs = std::filesystem;

namespace {

std::string where(const toml::node& node, const std::string& fallback) {
  const auto& src = node.source();
  if (src.path && src.begin.line) return fmt::format("{}:{}", *src.path, src.begin.line);
  return fallback;
}

toml::table parse_toml_file(const std::string& path) {
  return parse_toml_text(read_input_file(path, "chip file"), path, ExitCode::config);
}

// Child values win; tables merge key by key. Nodes are moved, not copied: a toml++ copy drops
// the node's source position, which error lines need (FILE:LINE).
void merge_into(toml::table& base, toml::table& child) {
  for (auto&& [key, node] : child) {
    auto* base_table = base[key].as_table();
    if (base_table && node.is_table()) {
      merge_into(*base_table, *node.as_table());
    } else {
      base.insert_or_assign(key, std::move(node));
    }
  }
}

// `extends` names a file beside the one extending it; a bare name that is not there ("h100",
// "h100.toml") is the shipped chip or system of that name, as --chip and --system find them.
fs::path shipped_parent(const std::string& name, const fs::path& beside) {
  if (name.find('/') != std::string::npos) return beside;
  std::string file = name.size() > 5 && name.ends_with(".toml") ? name : name + ".toml";
  for (const char* subdir : {"configs", "configs/systems"})
    for (const fs::path& dir : {fs::path(subdir), fs::path(HWSIM_SOURCE_DIR) / subdir})
      if (std::error_code ec; fs::is_regular_file(dir / file, ec)) return dir / file;
  return beside;
}

// Whether `path` exists; a path that cannot be looked at (a loop of symbolic links) is one error.
bool exists_or_fail(const fs::path& path) {
  std::error_code ec;
  bool found = fs::exists(path, ec);
  if (ec) config_error(fmt::format("{}: cannot read chip file: {}", shorten(path.string()), ec.message()));
  return found;
}

// Loads `path` with its extends chain; `stack` holds the files being loaded to detect cycles.
toml::table load_with_extends(const std::string& path, std::vector<std::string>& stack) {
  std::error_code ec;
  std::string canonical = fs::weakly_canonical(path, ec).string();
  for (const auto& open : stack) {
    if (open == canonical) {
      std::string chain;
      for (const auto& s : stack) chain += s + " → ";
      config_error(fmt::format("{}: extends: cycle: {}{}", stack.back(), chain, canonical));
    }
  }
  if (!exists_or_fail(path)) config_error(fmt::format("{}: no such chip file", shorten(path)));
  stack.push_back(canonical);
  toml::table own = parse_toml_file(path);
  toml::table result;
  if (auto* parent = own.get("extends")) {
    auto parent_name = parent->value<std::string>();
    if (!parent_name) config_error(fmt::format("{}: extends: must be a file name string", where(*parent, path)));
    fs::path parent_path = fs::path(path).parent_path() / *parent_name;
    if (!exists_or_fail(parent_path)) parent_path = shipped_parent(*parent_name, parent_path);
    if (!exists_or_fail(parent_path)) {
      config_error(fmt::format("{}: extends: no such file '{}' (looked for {}, and for a shipped chip or system "
                               "of that name in configs/)", where(*parent, path), shorten(*parent_name),
                               shorten(parent_path.string())));
    }
    result = load_with_extends(parent_path.string(), stack);
    own.erase("extends");
  }
  merge_into(result, own);
  stack.pop_back();
  return result;
}

// Flattens nested tables into dotted leaf keys.
void collect_leaves(const toml::table& table, const std::string& prefix,
                    std::vector<std::pair<std::string, const toml::node*>>& out) {
  for (const auto& [key, node] : table) {
    std::string full = prefix.empty() ? std::string(key.str()) : prefix + "." + std::string(key.str());
    if (const auto* sub = node.as_table()) {
      collect_leaves(*sub, full, out);
    } else {
      out.emplace_back(full, &node);
    }
  }
}

// Ensures the dotted key's parent tables exist in `root`; returns the innermost table.
toml::table& table_for(toml::table& root, const std::string& key, std::string& leaf) {
  toml::table* t = &root;
  std::size_t start = 0;
  for (std::size_t dot; (dot = key.find('.', start)) != std::string::npos; start = dot + 1) {
    std::string part = key.substr(start, dot - start);
    if (!t->get(part) || !t->get(part)->is_table()) t->insert_or_assign(part, toml::table{});
    t = t->get(part)->as_table();
  }
  leaf = key.substr(start);
  return *t;
}

// Text values (names, descriptions, tile lists): at most this long, far above any shipped one.
constexpr std::size_t kMaxTextLength = 1024;

// The one range rule (param.h: valid_range): finite, zero only where allowed, inside the bounds.
void check_range(const ParamValue& v, const std::string& at) {
  const ParamDecl& d = *v.decl;
  if (in_range(d, v.number)) return;
  bool whole = d.type == ParamType::count || d.type == ParamType::integer;
  std::string written = !v.text.empty() ? "'" + shorten(v.text) + "'"
                        : whole          ? fmt::format("{:.0f}", v.number)
                                         : fmt::format("{:.6g}", v.number);
  if (v.number == 0 && std::isfinite(v.number))
    config_error(fmt::format("{}: {}: must be greater than zero ({})", at, d.key,
                             d.type == ParamType::quantity ? std::string(example_units(d.dimension))
                                                           : describe_range(d)));
  config_error(fmt::format("{}: {}: {} is out of range ({})", at, d.key, written, describe_range(d)));
}

// Converts one TOML value (or --set text) to a typed ParamValue; `written` is the raw text for
// --set values (empty when `node` carries the value).
ParamValue typed_value(const ParamDecl& d, const toml::node* node, const std::string& written,
                       const std::string& at) {
  ParamValue v;
  v.decl = &d;
  v.origin = at;
  auto expect = [&](const std::string& what) -> std::string {
    return fmt::format("{}: {}: expected {}", at, d.key, what);
  };
  auto as_string = [&]() -> std::optional<std::string> {
    if (!node) return written;
    if (auto s = node->value<std::string>()) return *s;
    return std::nullopt;
  };
  auto as_double = [&]() -> std::optional<double> {
    if (node) {
      if (node->is_integer() || node->is_floating_point()) return node->value<double>();
      return std::nullopt;
    }
    std::string why;
    auto q = parse_quantity(written, &why);
    if (!q || q->dimension != Dimension::none) return std::nullopt;
    return q->value;
  };
  switch (d.type) {
    case ParamType::count:
    case ParamType::integer: {
      std::optional<double> x;
      if (node) {
        if (auto i = node->value_exact<int64_t>()) x = double(*i);
      } else {
        x = as_double();
      }
      if (!x || !std::isfinite(*x) || *x != std::floor(*x))
        config_error(expect(d.type == ParamType::count ? "a whole number >= 1" : "a whole number >= 0"));
      if (*x < (d.type == ParamType::count ? 1 : 0))
        config_error(fmt::format("{}: {}: {:.6g} is out of range ({})", at, d.key, *x, describe_range(d)));
      v.number = *x;
      break;
    }
    case ParamType::real:
    case ParamType::fraction: {
      auto x = as_double();
      if (!x || !std::isfinite(*x))
        config_error(expect(d.type == ParamType::fraction ? "a finite number in (0, 1]" : "a finite number"));
      if (*x < 0) config_error(fmt::format("{}: {}: {:.6g} is negative", at, d.key, *x));
      v.number = *x;
      break;
    }
    case ParamType::quantity: {
      auto s = as_string();
      if (!s)
        config_error(fmt::format("{}: {}: expected a {} with its unit as a string ({})", at, d.key,
                                 dimension_name(d.dimension), example_units(d.dimension)));
      std::string why;
      auto x = parse_quantity_as(*s, d.dimension, &why);
      if (!x) config_error(fmt::format("{}: {}: {}", at, d.key, why));
      v.number = *x;
      v.text = *s;
      break;
    }
    case ParamType::choice: {
      auto s = as_string();
      if (!s) config_error(expect("one of: " + join(d.choices)));
      if (std::find(d.choices.begin(), d.choices.end(), *s) == d.choices.end())
        config_error(fmt::format("{}: {}: '{}' is not one of: {}{}", at, d.key, shorten(*s), join(d.choices),
                                 did_you_mean(*s, d.choices)));
      v.text = *s;
      break;
    }
    case ParamType::text: {
      auto s = as_string();
      if (!s) config_error(expect("a string"));
      // Text lands in reports and error lines: one line of bounded length.
      if (s->size() > kMaxTextLength)
        config_error(fmt::format("{}: {}: {} characters is too long (at most {})", at, d.key, s->size(), kMaxTextLength));
      if (std::any_of(s->begin(), s->end(), [](char c) { return (unsigned char)c < 0x20 || c == 0x7f; }))
        config_error(fmt::format("{}: {}: a control character (a line break?) in '{}'; text is one line", at, d.key,
                                 shorten(*s)));
      v.text = *s;
      break;
    }
    case ParamType::boolean: {
      if (node) {
        auto b = node->value_exact<bool>();
        if (!b) config_error(expect("true or false"));
        v.flag = *b;
      } else if (written == "true" || written == "false") {
        v.flag = written == "true";
      } else {
        config_error(expect("true or false"));
      }
      break;
    }
  }
  if (d.type != ParamType::choice && d.type != ParamType::text && d.type != ParamType::boolean) check_range(v, at);
  return v;
}

// The TOML node a typed value is written back as in the resolved configuration.
void write_resolved(toml::table& root, const ParamValue& v) {
  std::string leaf;
  toml::table& t = table_for(root, v.decl->key, leaf);
  switch (v.decl->type) {
    case ParamType::count:
    case ParamType::integer: t.insert_or_assign(leaf, int64_t(v.number)); break;
    case ParamType::real:
    case ParamType::fraction: t.insert_or_assign(leaf, v.number); break;
    case ParamType::boolean: t.insert_or_assign(leaf, v.flag); break;
    default: t.insert_or_assign(leaf, v.text); break;
  }
}

// The declaration of `key` for a chip of `kind`; an unknown key, or a key of another kind's
// components, is one line naming the component and the key.
const ParamDecl& declared_or_fail(const std::string& key, const std::string& kind, const std::string& at) {
  const auto& catalog = ParamCatalog::instance();
  const ParamDecl* d = catalog.find(key);
  if (d && applies_to(*d, kind)) return *d;
  std::string what = kind == "system" ? "a system file" : "a " + kind + " chip";
  if (d)
    config_error(fmt::format("{}: {}: not a parameter of {} (a parameter of {}; "
                             "`kind` chooses the components a file has)",
                             at, key, what,
                             d->kinds == std::vector<std::string>{"system"} ? std::string("system files")
                                                                            : join(d->kinds, " and ") + " chips"));
  std::string component = component_of(key);
  std::string in = component.empty() ? "" : " in [" + shorten(component) + "]";
  config_error(fmt::format("{}: {}: unknown key{} of {}{}", at, shorten(key), in, what,
                           did_you_mean(key, catalog.keys_for(kind))));
}

// The file's kind: `kind` from the merged files (or --set), else `fallback`; it must be one of
// `allowed` (the registered device kinds for a chip file, "system" for a system file).
std::string file_kind(const toml::table& merged, const std::vector<std::string>& overrides, const std::string& path,
                      const std::string& fallback, const std::vector<std::string>& allowed) {
  std::string kind = fallback, at = path;
  if (const auto* node = merged.get("kind")) {
    auto text = node->value<std::string>();
    at = where(*node, path);
    if (!text) config_error(fmt::format("{}: kind: expected a string (one of: {})", at, join(allowed)));
    kind = *text;
  }
  for (const auto& assignment : overrides)
    if (assignment.rfind("kind=", 0) == 0) kind = assignment.substr(5), at = "--set";
  if (std::find(allowed.begin(), allowed.end(), kind) == allowed.end())
    config_error(fmt::format("{}: kind: '{}' is not {}; known: {}{}", at, shorten(kind),
                             fallback == "system" ? "a system (a system file has kind = \"system\")" : "a device kind",
                             join(allowed), did_you_mean(kind, allowed)));
  return kind;
}

std::vector<std::string> toml_stems(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".toml") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A bare name ("h100", "h200x2.toml") is a shipped file in `subdir` (of the working directory, then
// of the source tree); anything else is a path.
std::string find_shipped(const std::string& name, const std::string& subdir, const std::string& what,
                         const std::vector<std::string>& shipped) {
  // A path is read as it is (read_input_file refuses a folder, a FIFO or a device with the reason).
  std::error_code ec;
  if (name.find('/') != std::string::npos ? fs::exists(name, ec) : fs::is_regular_file(name, ec)) return name;
  if (name.find('/') == std::string::npos) {
    std::string file = name.size() > 5 && name.ends_with(".toml") ? name : name + ".toml";
    for (const fs::path& dir : {fs::path(subdir), fs::path(HWSIM_SOURCE_DIR) / subdir}) {
      fs::path candidate = dir / file;
      if (fs::is_regular_file(candidate)) return candidate.string();
    }
    std::string stem = file.substr(0, file.size() - 5);
    config_error(fmt::format("--{} {}: unknown {}; shipped {}s: {}{}", what, name, what, what, join(shipped),
                             did_you_mean(stem, shipped)));
  }
  config_error(fmt::format("{}: no such {} file", name, what));
}

}  // namespace

std::vector<std::string> shipped_chips() { return toml_stems(fs::path(HWSIM_SOURCE_DIR) / "configs"); }
std::vector<std::string> shipped_systems() { return toml_stems(fs::path(HWSIM_SOURCE_DIR) / "configs" / "systems"); }

std::string find_chip_file(const std::string& chip) { return find_shipped(chip, "configs", "chip", shipped_chips()); }
std::string find_system_file(const std::string& system) {
  return find_shipped(system, "configs/systems", "system", shipped_systems());
}

Config load_file(Config config, const std::vector<std::string>& overrides, const std::string& fallback_kind,
                 const std::vector<std::string>& allowed_kinds);

Config load_config(const std::string& chip, const std::vector<std::string>& overrides,
                   const std::vector<std::string>& kinds) {
  Config config;
  config.chip_path_ = find_chip_file(chip);
  return load_file(std::move(config), overrides, "gpu", kinds);
}

Config load_system_config(const std::string& system, const std::vector<std::string>& overrides) {
  Config config;
  config.chip_path_ = find_system_file(system);
  return load_file(std::move(config), overrides, "system", {"system"});
}

bool is_system_key(const std::string& key) {
  // A key in a system component (system.*, scale_up.*, ...), declared or not: a misspelt system key
  // gets the system's did-you-mean, not the chip's.
  std::string head = key.substr(0, key.find('.'));
  for (const auto& d : ParamCatalog::instance().all())
    if (!d.kinds.empty() && applies_to(d, "system") && d.key.substr(0, d.key.find('.')) == head && d.key.find('.') != std::string::npos)
      return true;
  return false;
}

// The loader behind load_config and load_system_config: `config` holds the resolved file path.
Config load_file(Config config, const std::vector<std::string>& overrides, const std::string& fallback_kind,
                 const std::vector<std::string>& allowed_kinds) {
  std::vector<std::string> stack;
  toml::table merged = load_with_extends(config.chip_path_, stack);

  // Values from the files.
  std::vector<std::pair<std::string, const toml::node*>> leaves;
  collect_leaves(merged, "", leaves);
  config.kind_ = file_kind(merged, overrides, config.chip_path_, fallback_kind, allowed_kinds);
  for (const auto& [key, node] : leaves) {
    std::string at = where(*node, config.chip_path_);
    const ParamDecl& d = declared_or_fail(key, config.kind_, at);
    config.values_[key] = typed_value(d, node, "", at);
  }
  // --set overrides, in order.
  for (const auto& assignment : overrides) {
    auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
      config_error(fmt::format("--set {}: expected KEY=VALUE (e.g. --set memory.hbm.bandwidth=4.8TB/s)", shorten(assignment)));
    std::string key = assignment.substr(0, eq);
    if (key.rfind("workload.", 0) == 0)  // a workload field is not a chip key: it goes in the spec
      config_error(fmt::format("--set {}: {} is a field of the workload, not a chip key: write it in the spec "
                               "(-w NAME:{}={}; a sweep takes --set workload.FIELD=VALUE and --vary workload.FIELD=...)",
                               shorten(assignment), shorten(key), shorten(key.substr(9)), shorten(assignment.substr(eq + 1))));
    const ParamDecl& d = declared_or_fail(key, config.kind_, "--set");
    config.values_[key] = typed_value(d, nullptr, assignment.substr(eq + 1), "--set");
    config.overrides_.push_back(assignment);
  }
  // Defaults and required keys.
  for (const auto& d : ParamCatalog::instance().all()) {
    if (!applies_to(d, config.kind_) || config.values_.count(d.key)) continue;
    if (!d.default_value) {
      config_error(fmt::format("{}: {}: missing required key of a {} chip ({}: {})", config.chip_path_, d.key,
                               config.kind_, type_label(d), d.description));
    }
    config.values_[d.key] = typed_value(d, nullptr, *d.default_value, "default");
  }
  config.resolved_ = std::make_unique<toml::table>();
  for (const auto& [key, value] : config.values_) write_resolved(*config.resolved_, value);
  return config;
}

}  // namespace hwsim
