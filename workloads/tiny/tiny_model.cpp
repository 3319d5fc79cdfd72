#include "workloads/tiny/tiny_model.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <toml++/toml.h>

#include "sim/did_you_mean.h"
#include "sim/error.h"

namespace hwsim {
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kOps = {"conv", "dwconv", "avgpool", "maxpool", "fc", "add", "softmax"};
const std::vector<std::string> kLayerKeys = {"name", "op", "input", "inputs", "filters", "units", "multiplier",
                                             "kernel", "pool", "stride", "padding"};

[[noreturn]] void fail(const std::string& path, int line, const std::string& what) {
  workload_error(line > 0 ? fmt::format("{}:{}: {}", path, line, what) : fmt::format("{}: {}", path, what));
}

// [h, w] or a single whole number for both.
void pair(const toml::node& n, const std::string& path, const std::string& key, std::int64_t& h, std::int64_t& w) {
  int line = int(n.source().begin.line);
  if (n.is_integer()) { h = w = n.as_integer()->get(); return; }
  const toml::array* a = n.as_array();
  if (!a || a->size() != 2 || !(*a)[0].is_integer() || !(*a)[1].is_integer())
    fail(path, line, key + ": expected [height, width] or one whole number");
  h = (*a)[0].as_integer()->get();
  w = (*a)[1].as_integer()->get();
}

TinyLayer parse_layer(const toml::table& t, const std::string& path) {
  TinyLayer l;
  l.line = int(t.source().begin.line);
  for (const auto& [key, node] : t) {
    std::string k(key.str());
    if (std::find(kLayerKeys.begin(), kLayerKeys.end(), k) == kLayerKeys.end())
      fail(path, int(node.source().begin.line), fmt::format("unknown layer key '{}'{}; valid: {}", k,
                                                            did_you_mean(k, kLayerKeys), join(kLayerKeys)));
  }
  auto text = [&](const char* key) -> std::string {
    const toml::node* n = t.get(key);
    if (!n || !n->is_string()) fail(path, l.line, fmt::format("layer: '{}' must be a string", key));
    return n->as_string()->get();
  };
  l.name = text("name");
  l.op = text("op");
  if (std::find(kOps.begin(), kOps.end(), l.op) == kOps.end())
    fail(path, l.line, fmt::format("layer {}: op '{}' is not one of {}{}", l.name, l.op, join(kOps), did_you_mean(l.op, kOps)));
  if (const toml::node* n = t.get("input")) l.inputs.push_back(n->value_or(std::string()));
  if (const toml::array* a = t.get_as<toml::array>("inputs"))
    for (const auto& e : *a) l.inputs.push_back(e.value_or(std::string()));
  l.filters = t["filters"].value_or(t["units"].value_or(std::int64_t(0)));
  l.multiplier = t["multiplier"].value_or(std::int64_t(1));
  if (const toml::node* n = t.get("kernel")) pair(*n, path, "kernel", l.kernel_h, l.kernel_w);
  if (const toml::node* n = t.get("pool")) pair(*n, path, "pool", l.kernel_h, l.kernel_w);
  bool pool = l.op == "avgpool" || l.op == "maxpool";
  l.stride_h = pool ? l.kernel_h : 1, l.stride_w = pool ? l.kernel_w : 1;  // Keras pooling: stride = pool
  if (const toml::node* n = t.get("stride")) pair(*n, path, "stride", l.stride_h, l.stride_w);
  l.padding = t["padding"].value_or(std::string(pool ? "valid" : "same"));
  if (l.padding != "same" && l.padding != "valid")
    fail(path, l.line, fmt::format("layer {}: padding '{}' must be same or valid", l.name, l.padding));
  return l;
}

}  // namespace

std::string tiny_model_folder() {
  fs::path source = fs::path(HWSIM_SOURCE_DIR) / "workloads" / "tiny" / "models";
  if (fs::is_directory(source)) return source.string();
  return (fs::path("workloads") / "tiny" / "models").string();
}

std::vector<std::string> tiny_model_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(tiny_model_folder(), ec))
    if (entry.path().extension() == ".toml") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

TinyModel load_tiny_model(const std::string& name) {
  std::vector<std::string> known = tiny_model_names();
  if (std::find(known.begin(), known.end(), name) == known.end())
    workload_error(fmt::format("tiny model '{}' unknown{}; known: {} (files in {})", name, did_you_mean(name, known),
                               known.empty() ? "none" : join(known), tiny_model_folder()));
  TinyModel m;
  m.name = name;
  m.path = (fs::path(tiny_model_folder()) / (name + ".toml")).string();
  toml::table table;
  try {
    table = toml::parse_file(m.path);
  } catch (const toml::parse_error& e) {
    fail(m.path, int(e.source().begin.line), "TOML syntax error: " + std::string(e.description()));
  }
  m.description = table["description"].value_or(std::string());
  const toml::array* input = table.get_as<toml::array>("input");
  if (!input || input->size() != 3) fail(m.path, 0, "input: expected [height, width, channels]");
  m.in_h = (*input)[0].value_or(std::int64_t(0));
  m.in_w = (*input)[1].value_or(std::int64_t(0));
  m.in_c = (*input)[2].value_or(std::int64_t(0));
  const toml::array* layers = table.get_as<toml::array>("layer");
  if (!layers || layers->empty()) fail(m.path, 0, "no [[layer]] tables");
  for (const auto& node : *layers) {
    const toml::table* t = node.as_table();
    if (!t) fail(m.path, int(node.source().begin.line), "layer: expected a table");
    m.layers.push_back(parse_layer(*t, m.path));
  }
  return m;
}

}  // namespace hwsim
