#include "workloads/llm/measurement_train_model.h"

#include <fmt/format.h>

#include <map>

namespace hwsim {

namespace {
// The shipped architecture each measured family starts from.
const std::map<std::string, std::string>& family_models() {
  static const std::map<std::string, std::string> models = {{"gpt2", "gpt2"}, {"llama", "llama3_8b"}};
  return models;
}
}  // namespace

std::optional<std::string> train_model_fields(const Measurement& m) {
  auto family = record_word(m, "family");
  auto layers = record_whole(m, "layers"), hidden = record_whole(m, "d_model");
  auto heads = record_whole(m, "heads"), kv = record_whole(m, "kv_heads"), head_dim = record_whole(m, "head_dim");
  auto ffn = record_whole(m, "ffn"), vocab = record_whole(m, "vocab");
  if (!family || !layers || !hidden || !heads || !kv || !head_dim || !ffn || !vocab) return std::nullopt;
  auto model = family_models().find(*family);
  if (model == family_models().end()) return std::nullopt;
  return fmt::format("model={},layers={},hidden={},heads={},kv_heads={},head_dim={},ffn={},vocab={}", model->second,
                     *layers, *hidden, *heads, *kv, *head_dim, *ffn, *vocab);
}

}  // namespace hwsim
