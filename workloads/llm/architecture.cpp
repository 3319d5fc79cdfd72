#include "workloads/llm/architecture.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <toml++/toml.h>

#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "sim/config/toml_text.h"
#include "sim/input_file.h"
#include "workloads/spec.h"

namespace hwsim {
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kActivations = {"silu", "gelu"};
const std::vector<std::string> kNorms = {"rmsnorm", "layernorm"};
const std::vector<std::string> kPositions = {"rope", "learned"};

std::string where(const std::string& path, const toml::node* node, const std::string& key) {
  if (node && node->source().begin.line) return fmt::format("{}:{}: {}", path, node->source().begin.line, key);
  return fmt::format("{}: {}", path, key);
}

std::string choice(const std::string& value, const std::vector<std::string>& valid, const std::string& context) {
  if (std::find(valid.begin(), valid.end(), value) == valid.end())
    workload_error(fmt::format("{}: '{}' is not one of {}{}", context, value, join(valid), did_you_mean(value, valid)));
  return value;
}

// Fields that multiply a step's kernels without (much) memory get bounds of their own, so a spec or a
// model file cannot make a run endless: 16x the deepest model shipped, 16x the most experts of a public MoE
// (DeepSeek-V3: 256), 128x Llama 3.1's context.
constexpr std::int64_t kMaxLayers = 4096, kMaxExperts = 4096, kMaxContext = std::int64_t(1) << 24;

// The widest a model's dimensions may be: about 16x the widest shipped model's (hidden 16,384,
// 128 heads, head_dim 576, ffn 53,248, vocab 256,000), so a model's sizes and their products
// (KV bytes per token, a layer's weights, a step's FLOPs) stay far inside 64-bit arithmetic.
struct WidthBound {
  const char* name;
  std::int64_t ModelArchitecture::*field;
  std::int64_t max;
};
constexpr WidthBound kWidthBounds[] = {{"hidden", &ModelArchitecture::hidden, std::int64_t(1) << 18},
                                       {"heads", &ModelArchitecture::heads, 4096},
                                       {"kv_heads", &ModelArchitecture::kv_heads, 4096},
                                       {"head_dim", &ModelArchitecture::head_dim, 8192},
                                       {"ffn", &ModelArchitecture::ffn, std::int64_t(1) << 20},
                                       {"dense_ffn", &ModelArchitecture::dense_ffn, std::int64_t(1) << 20},
                                       {"vocab", &ModelArchitecture::vocab, std::int64_t(1) << 22},
                                       {"kv_lora_rank", &ModelArchitecture::kv_lora_rank, std::int64_t(1) << 18},
                                       {"q_lora_rank", &ModelArchitecture::q_lora_rank, std::int64_t(1) << 18},
                                       {"v_head_dim", &ModelArchitecture::v_head_dim, 8192},
                                       {"shared_experts", &ModelArchitecture::shared_experts, 4096},
                                       {"layers", &ModelArchitecture::layers, kMaxLayers},
                                       {"dense_layers", &ModelArchitecture::dense_layers, kMaxLayers},
                                       {"experts", &ModelArchitecture::experts, kMaxExperts},
                                       {"max_context", &ModelArchitecture::max_context, kMaxContext}};

// Cross-field rules, shared by files and overrides; `context` prefixes the error line.
void check_consistent(const ModelArchitecture& a, const std::string& context) {
  auto bad = [&](const std::string& what) { workload_error(fmt::format("{}: {}", context, what)); };
  if (a.layers < 1 || a.hidden < 1 || a.heads < 1 || a.kv_heads < 1 || a.head_dim < 1 || a.ffn < 1 ||
      a.vocab < 1 || a.experts < 1 || a.top_k < 1 || a.max_context < 1)
    bad("layers, hidden, heads, kv_heads, head_dim, ffn, vocab, experts, top_k and max_context must be >= 1");
  for (const WidthBound& w : kWidthBounds)
    if (a.*w.field > w.max)
      bad(fmt::format("{} {} is beyond any model hwsim runs (at most {}, about 16x the largest shipped)", w.name,
                      a.*w.field, w.max));
  if (a.window < 0) bad(fmt::format("window {} is negative (0 = full attention)", a.window));
  if (a.heads % a.kv_heads != 0) bad(fmt::format("heads {} is not a multiple of kv_heads {}", a.heads, a.kv_heads));
  if (a.top_k > a.experts) bad(fmt::format("top_k {} exceeds experts {}", a.top_k, a.experts));
  if (a.kv_lora_rank < 0 || a.q_lora_rank < 0 || a.rope_head_dim < 0 || a.v_head_dim < 0 || a.shared_experts < 0 ||
      a.dense_layers < 0 || a.dense_ffn < 0)
    bad("kv_lora_rank, q_lora_rank, rope_head_dim, v_head_dim, shared_experts, dense_layers and dense_ffn must be >= 0");
  if (a.is_mla() && a.rope_head_dim >= a.head_dim)
    bad(fmt::format("rope_head_dim {} must be below head_dim {} (head_dim = nope + rope dims)", a.rope_head_dim,
                    a.head_dim));
  if (a.dense_layers > 0 && a.dense_ffn < 1) bad("dense_layers > 0 needs dense_ffn (their FFN intermediate size)");
  if ((a.shared_experts > 0 || a.dense_layers > 0) && !a.is_moe())
    bad("shared_experts and dense_layers describe a mixture-of-experts model (experts > 1)");
}



}  // namespace

const std::vector<std::string>& architecture_fields() {
  static const std::vector<std::string> fields = {
      "layers", "hidden", "heads", "kv_heads", "head_dim", "ffn", "activation", "gated", "vocab", "norm",
      "position", "window", "experts", "top_k", "tied_embeddings", "max_context", "kv_lora_rank", "q_lora_rank",
      "rope_head_dim", "v_head_dim", "shared_experts", "dense_layers", "dense_ffn", "linear_bias"};
  return fields;
}

double ModelArchitecture::attention_weights() const {
  const double h = double(hidden), H = double(heads), D = double(head_dim);
  if (!is_mla()) return double((heads + 2 * kv_heads) * head_dim) * h + H * D * h;
  const double v = double(v_head_dim > 0 ? v_head_dim : head_dim), nope = D - double(rope_head_dim);
  const double q = q_lora_rank > 0 ? h * double(q_lora_rank) + double(q_lora_rank) * H * D : h * H * D;
  const double kv = h * double(kv_lora_rank + rope_head_dim) + double(kv_lora_rank) * H * (nope + v);
  return q + kv + H * v * h;
}

double ModelArchitecture::ffn_weights(std::int64_t layer) const {
  const double h = double(hidden), per = gated ? 3 : 2;
  if (!is_moe_layer(layer)) return per * h * double(is_moe() && dense_ffn > 0 ? dense_ffn : ffn);
  return double(experts + shared_experts) * per * h * double(ffn) + double(experts) * h;  // + router
}

std::string architecture_folder() {
  fs::path source = fs::path(HWSIM_SOURCE_DIR) / "workloads" / "llm" / "models";
  if (fs::is_directory(source)) return source.string();
  return (fs::path("workloads") / "llm" / "models").string();
}

std::vector<std::string> architecture_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(architecture_folder(), ec))
    if (entry.path().extension() == ".toml") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

namespace {
// A model named by path (model=path/to/m.toml: a '/' or the .toml suffix) is read from that file;
// a bare name from the models folder.
bool names_a_file(const std::string& name) {
  return name.find('/') != std::string::npos || fs::path(name).extension() == ".toml";
}
}  // namespace

ModelArchitecture load_architecture(const std::string& name) {
  std::string path;
  if (names_a_file(name)) {
    path = name;
  } else {
    std::vector<std::string> known = architecture_names();
    if (std::find(known.begin(), known.end(), name) == known.end())
      workload_error(fmt::format("model '{}' unknown{}; known models: {} (files in {}; or give a file: model=path/to/m.toml)",
                                 shorten(name), did_you_mean(name, known), known.empty() ? "none" : join(known),
                                 architecture_folder()));
    path = (fs::path(architecture_folder()) / (name + ".toml")).string();
  }
  // a model file may come from anyone (model=path): parsed with the nesting guard of chip files
  toml::table table = parse_toml_text(read_input_file(path, "model file"), path, ExitCode::workload);
  std::vector<std::string> fields = architecture_fields();
  fields.push_back("tokenizer");  // optional, not a spec override: a family is the file's to say
  for (const auto& [key, node] : table) {
    std::string k(key.str());
    if (std::find(fields.begin(), fields.end(), k) == fields.end())
      workload_error(fmt::format("{}: unknown key{}; valid: {}", where(path, &node, k), did_you_mean(k, fields), join(fields)));
  }
  auto node_of = [&](const std::string& key) -> const toml::node& {
    const toml::node* node = table.get(key);
    if (!node) workload_error(fmt::format("{}: {}: missing key", path, key));
    return *node;
  };
  auto integer = [&](const std::string& key) {
    const toml::node& n = node_of(key);
    if (!n.is_integer()) workload_error(fmt::format("{}: expected a whole number", where(path, &n, key)));
    return n.as_integer()->get();
  };
  auto text = [&](const std::string& key, const std::vector<std::string>& valid) {
    const toml::node& n = node_of(key);
    if (!n.is_string()) workload_error(fmt::format("{}: expected a string", where(path, &n, key)));
    return choice(n.as_string()->get(), valid, where(path, &n, key));
  };
  auto flag = [&](const std::string& key) {
    const toml::node& n = node_of(key);
    if (!n.is_boolean()) workload_error(fmt::format("{}: expected true or false", where(path, &n, key)));
    return n.as_boolean()->get();
  };
  ModelArchitecture a;
  a.name = fs::path(name).stem().string();
  a.layers = integer("layers");
  a.hidden = integer("hidden");
  a.heads = integer("heads");
  a.kv_heads = integer("kv_heads");
  a.head_dim = integer("head_dim");
  a.ffn = integer("ffn");
  a.activation = text("activation", kActivations);
  a.gated = flag("gated");
  a.vocab = integer("vocab");
  a.norm = text("norm", kNorms);
  a.position = text("position", kPositions);
  a.window = integer("window");
  a.experts = integer("experts");
  a.top_k = integer("top_k");
  a.tied_embeddings = flag("tied_embeddings");
  a.max_context = integer("max_context");
  auto optional = [&](const std::string& key) { return table.get(key) ? integer(key) : std::int64_t(0); };
  a.kv_lora_rank = optional("kv_lora_rank");
  a.q_lora_rank = optional("q_lora_rank");
  a.rope_head_dim = optional("rope_head_dim");
  a.v_head_dim = optional("v_head_dim");
  a.shared_experts = optional("shared_experts");
  a.dense_layers = optional("dense_layers");
  a.dense_ffn = optional("dense_ffn");
  a.linear_bias = table.get("linear_bias") ? flag("linear_bias") : false;
  a.tokenizer = name;
  if (const toml::node* t = table.get("tokenizer")) {
    if (!t->is_string() || t->as_string()->get().empty())
      workload_error(fmt::format("{}: expected the tokenizer family's name", where(path, t, "tokenizer")));
    a.tokenizer = t->as_string()->get();
  }
  check_consistent(a, path);
  return a;
}


ModelArchitecture with_overrides(ModelArchitecture a, const WorkloadSpec& spec) {
  auto ctx = [&](const std::string& key) { return fmt::format("workload '{}': {}", spec.text(), key); };
  a.layers = spec.positive_int("layers", a.layers, kMaxLayers);
  a.hidden = spec.positive_int("hidden", a.hidden);
  a.heads = spec.positive_int("heads", a.heads);
  a.kv_heads = spec.positive_int("kv_heads", a.kv_heads);
  a.head_dim = spec.positive_int("head_dim", a.head_dim);
  a.ffn = spec.positive_int("ffn", a.ffn);
  if (spec.has("activation")) a.activation = choice(spec.word("activation", ""), kActivations, ctx("activation"));
  a.gated = spec.boolean("gated", a.gated);
  a.vocab = spec.positive_int("vocab", a.vocab);
  if (spec.has("norm")) a.norm = choice(spec.word("norm", ""), kNorms, ctx("norm"));
  if (spec.has("position")) a.position = choice(spec.word("position", ""), kPositions, ctx("position"));
  a.window = spec.non_negative_int("window", a.window);
  a.experts = spec.positive_int("experts", a.experts, kMaxExperts);
  a.top_k = spec.positive_int("top_k", a.top_k, kMaxExperts);
  a.tied_embeddings = spec.boolean("tied_embeddings", a.tied_embeddings);
  a.linear_bias = spec.boolean("linear_bias", a.linear_bias);
  a.max_context = spec.positive_int("max_context", a.max_context, kMaxContext);
  a.kv_lora_rank = spec.non_negative_int("kv_lora_rank", a.kv_lora_rank);
  a.q_lora_rank = spec.non_negative_int("q_lora_rank", a.q_lora_rank);
  a.rope_head_dim = spec.non_negative_int("rope_head_dim", a.rope_head_dim);
  a.v_head_dim = spec.non_negative_int("v_head_dim", a.v_head_dim);
  a.shared_experts = spec.non_negative_int("shared_experts", a.shared_experts, kMaxExperts);
  a.dense_layers = spec.non_negative_int("dense_layers", a.dense_layers, kMaxLayers);
  a.dense_ffn = spec.non_negative_int("dense_ffn", a.dense_ffn);
  check_consistent(a, fmt::format("workload '{}': model {}", spec.text(), a.name));
  return a;
}

ModelArchitecture spec_architecture(const WorkloadSpec& spec) {
  auto fail = [&](const std::string& what) { workload_error(fmt::format("workload '{}': {}", spec.text(), what)); };
  std::string model = spec.word("model", "");
  if (model.empty()) fail(fmt::format("model: missing; known models: {}", join(architecture_names())));
  ModelArchitecture arch;
  try {
    arch = load_architecture(model);
  } catch (const UserError& e) {  // its own exit code: an unreadable file is an I/O error (5), not a bad spec
    throw UserError(e.code(), fmt::format("workload '{}': {}", spec.text(), e.what()));
  }
  return with_overrides(arch, spec);
}

}  // namespace hwsim
