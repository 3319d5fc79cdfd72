#include "app/sweep/sweep_file.h"

#include <filesystem>
#include <fmt/format.h>
#include <set>
#include <toml++/toml.h>

#include "app/sweep/sweep_values.h"
#include "sim/config/toml_text.h"
#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "sim/input_file.h"

namespace hwsim {

namespace {
std::string at(const std::string& path, const toml::node& node) {
  return fmt::format("{}:{}", path, node.source().begin.line);
}

std::string text_of(const std::string& path, const toml::node& node, const std::string& key) {
  if (auto s = node.value<std::string>()) return *s;
  usage_error(fmt::format("{}: {}: expected a string in quotes", at(path, node), key));
}

// One value of a `values` array as text: a string as written, a number as TOML wrote it.
std::string array_value(const std::string& path, const toml::node& node) {
  if (auto s = node.value_exact<std::string>()) return *s;
  if (auto i = node.value_exact<int64_t>()) return std::to_string(*i);
  if (auto d = node.value_exact<double>()) return fmt::format("{}", *d);
  if (auto b = node.value_exact<bool>()) return *b ? "true" : "false";
  usage_error(fmt::format("{}: values: expected strings or numbers", at(path, node)));
}

// `held`: the values the file's earlier [[vary]] lists hold (kMaxSweepValues bounds them all).
SweepAxis read_axis(const std::string& path, const toml::table& t, std::size_t held) {
  static const std::vector<std::string> fields = {"key", "values"};
  for (auto&& [k, node] : t)
    if (std::string(k.str()) != "key" && std::string(k.str()) != "values")
      usage_error(fmt::format("{}: [[vary]] {}: unknown field{}; valid: key, values", at(path, node), k.str(),
                              did_you_mean(std::string(k.str()), fields)));
  const toml::node* key = t.get("key");
  const toml::node* values = t.get("values");
  if (!key || !values) usage_error(fmt::format("{}:{}: [[vary]] needs key = \"...\" and values = ...", path, t.source().begin.line));
  SweepAxis axis;
  axis.key = text_of(path, *key, "key");
  try {
    if (const auto* list = values->as_array()) {
      if (list->empty()) usage_error(fmt::format("{}: values: an empty list", at(path, *values)));
      for (const auto& v : *list) {
        auto expanded = expand_sweep_values(axis.key, array_value(path, v), held + axis.values.size());
        axis.values.insert(axis.values.end(), expanded.begin(), expanded.end());
      }
    } else {
      axis.values = expand_sweep_values(axis.key, text_of(path, *values, "values"), held);
    }
  } catch (const UserError& e) {
    if (std::string(e.what()).rfind(path, 0) == 0) throw;
    usage_error(fmt::format("{}: {}", at(path, *values), e.what()));
  }
  return axis;
}
}  // namespace

SweepSpec load_sweep_file(const std::string& path) {
  if (!std::filesystem::exists(path)) io_error(fmt::format("{}: no such sweep file", shorten(path)));
  toml::table root = parse_toml_text(read_input_file(path, "sweep file"), path, ExitCode::usage);
  static const std::vector<std::string> known = {"chip", "system", "workload", "set", "zip", "vary"};
  SweepSpec spec;
  for (auto&& [k, node] : root) {
    std::string key(k.str());
    if (key == "chip") spec.chip = text_of(path, node, key);
    else if (key == "system") spec.system = text_of(path, node, key);
    else if (key == "workload") spec.workload = text_of(path, node, key);
    else if (key == "zip") {
      auto b = node.value_exact<bool>();
      if (!b) usage_error(fmt::format("{}: zip: expected true or false", at(path, node)));
      spec.zip = *b;
    } else if (key == "set") {
      const auto* list = node.as_array();
      if (!list) usage_error(fmt::format("{}: set: expected a list of \"KEY=VALUE\" strings", at(path, node)));
      for (const auto& v : *list) spec.overrides.push_back(text_of(path, v, "set"));
    } else if (key == "vary") {
      const auto* list = node.as_array();
      if (!list || !list->is_array_of_tables())
        usage_error(fmt::format("{}: vary: expected [[vary]] tables (key = ..., values = ...)", at(path, node)));
      for (const auto& t : *list) {
        std::size_t held = 0;
        for (const auto& a : spec.axes) held += a.values.size();
        spec.axes.push_back(read_axis(path, *t.as_table(), held));
      }
    } else {
      usage_error(fmt::format("{}: {}: unknown field{}; valid: chip, system, workload, set, zip, [[vary]]",
                              at(path, node), key, did_you_mean(key, known)));
    }
  }
  return spec;
}

}  // namespace hwsim
