#include "workloads/tiny/tiny_model.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <toml++/toml.h>

#include "sim/config/toml_text.h"
#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "sim/input_file.h"

namespace hwsim {
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kOps = {"conv", "dwconv", "avgpool", "maxpool", "fc", "add", "softmax"};
const std::vector<std::string> kLayerKeys = {"name", "op", "input", "inputs", "filters", "units", "multiplier",
                                             "kernel", "pool", "stride", "padding"};

[[noreturn]] void fail(const std::string& path, int line, const std::string& what) {
  workload_error(line > 0 ? fmt::format("{}:{}: {}", path, line, what) : fmt::format("{}: {}", path, what));
}

// A layer's and the input's sizes: far beyond any microcontroller model, far below what overflows
// the shape arithmetic (a 65,536² image of 65,536 channels still fits in 64 bits).
constexpr std::int64_t kMaxDimension = 65536;

// A whole number in [lo, kMaxDimension] at `n`.
std::int64_t dimension(const toml::node& n, const std::string& path, const std::string& key, std::int64_t lo) {
  int line = int(n.source().begin.line);
  if (!n.is_integer()) fail(path, line, key + ": expected a whole number");
  std::int64_t v = n.as_integer()->get();
  if (v < lo || v > kMaxDimension)
    fail(path, line, fmt::format("{}: {} is out of range (a whole number from {} to {})", key, v, lo, kMaxDimension));
  return v;
}

// [h, w] or a single whole number for both.
void pair(const toml::node& n, const std::string& path, const std::string& key, std::int64_t& h, std::int64_t& w) {
  int line = int(n.source().begin.line);
  if (n.is_integer()) { h = w = dimension(n, path, key, 1); return; }
  const toml::array* a = n.as_array();
  if (!a || a->size() != 2 || !(*a)[0].is_integer() || !(*a)[1].is_integer())
    fail(path, line, key + ": expected [height, width] or one whole number");
  h = dimension((*a)[0], path, key + "[0]", 1);
  w = dimension((*a)[1], path, key + "[1]", 1);
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
    fail(path, l.line, fmt::format("layer {}: op '{}' is not one of {}{}", shorten(l.name, 40), shorten(l.op, 40), join(kOps),
                                   did_you_mean(l.op, kOps)));
  if (const toml::node* n = t.get("input")) l.inputs.push_back(n->value_or(std::string()));
  if (const toml::array* a = t.get_as<toml::array>("inputs"))
    for (const auto& e : *a) l.inputs.push_back(e.value_or(std::string()));
  for (const char* key : {"filters", "units"})
    if (const toml::node* n = t.get(key)) l.filters = dimension(*n, path, key, 1);
  if (const toml::node* n = t.get("multiplier")) l.multiplier = dimension(*n, path, "multiplier", 1);
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
  return load_tiny_model_file((fs::path(tiny_model_folder()) / (name + ".toml")).string(), name);
}

TinyModel load_tiny_model_file(const std::string& path, const std::string& name) {
  TinyModel m;
  m.name = name;
  m.path = path;
  // Read as every input file is (a regular file, bounded), parsed with the chip files' nesting guard.
  toml::table table = parse_toml_text(read_input_file(m.path, "tiny model file"), m.path, ExitCode::workload);
  m.description = table["description"].value_or(std::string());
  const toml::array* input = table.get_as<toml::array>("input");
  if (!input || input->size() != 3) fail(m.path, 0, "input: expected [height, width, channels]");
  m.in_h = dimension((*input)[0], m.path, "input[0]", 1);
  m.in_w = dimension((*input)[1], m.path, "input[1]", 1);
  m.in_c = dimension((*input)[2], m.path, "input[2]", 1);
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
