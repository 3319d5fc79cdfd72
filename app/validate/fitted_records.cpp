#include <filesystem>
#include <fmt/format.h>
#include <toml++/toml.h>

#include "app/validate/validate.h"
#include "sim/config/toml_text.h"
#include "sim/error.h"
#include "sim/input_file.h"

namespace hwsim {
namespace {

// TOML scalars as JSON values, for comparison with a record's fields.
nlohmann::json to_json(const toml::node& node, const std::string& where) {
  if (auto v = node.as_integer()) return v->get();
  if (auto v = node.as_floating_point()) return v->get();
  if (auto v = node.as_boolean()) return v->get();
  if (auto v = node.as_string()) return v->get();
  config_error(where + ": expected a number, true/false or a string");
}

// Equal as JSON, numbers by value (1 matches 1.0).
bool same(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
  return a == b;
}

}  // namespace

std::string FittedRecords::fitted(const Measurement& m, const std::string& file) const {
  std::string base = std::filesystem::path(file).filename().string();
  for (const auto& e : entries) {
    if (e.kind != m.kind || (!e.file.empty() && e.file != base)) continue;
    bool all = true;
    for (const auto& [key, value] : e.match.items())
      all = all && m.fields.contains(key) && same(m.fields[key], value);
    if (all) return e.parameter;
  }
  return "";
}

FittedRecords FittedRecords::load(const std::string& path) {
  // Read and parsed as every configuration file is (sim/input_file.h, sim/config/toml_text.h).
  toml::table table = parse_toml_text(read_input_file(path, "fitted-records file"), path, ExitCode::config);
  FittedRecords out;
  const toml::array* list = table["fitted"].as_array();
  if (!list) config_error(path + ": expected [[fitted]] tables (parameter, file, kind, match)");
  for (const toml::node& item : *list) {
    const toml::table* t = item.as_table();
    std::string where = fmt::format("{}:{}", path, item.source().begin.line);
    if (!t) config_error(where + ": [[fitted]] must be a table");
    Entry e;
    auto text = [&](const char* key, bool required) {
      const toml::node* n = t->get(key);
      if (!n && !required) return std::string();
      if (!n || !n->is_string()) config_error(fmt::format("{}: {}: expected a string", where, key));
      return n->as_string()->get();
    };
    e.parameter = text("parameter", true);
    e.file = text("file", false);
    e.kind = text("kind", true);
    e.match = nlohmann::json::object();
    if (const toml::node* m = t->get("match")) {
      if (!m->is_table()) config_error(where + ": match: expected an inline table of record fields");
      for (const auto& [key, value] : *m->as_table())
        e.match[std::string(key.str())] = to_json(value, fmt::format("{}: match.{}", where, key.str()));
    }
    out.entries.push_back(std::move(e));
  }
  return out;
}

}  // namespace hwsim
