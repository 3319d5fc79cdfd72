#include "workloads/llm/op_names.h"

#include <cctype>

#include <fmt/format.h>

namespace hwsim {

std::string layer_name(std::int64_t layer) { return fmt::format("L{}", layer); }
std::string layer_op_name(std::int64_t layer, std::string_view op) { return layer_prefix(layer) + std::string(op); }
std::string layer_prefix(std::int64_t layer) { return layer_name(layer) + "."; }
std::string microbatch_prefix(std::int64_t microbatch, std::int64_t microbatches) {
  return microbatches > 1 ? fmt::format("mb{}.", microbatch) : "";
}

namespace {
// Removes a leading "<letter><digits>." ("L3.", "mb1.") when `letters` names it.
bool strip_numbered(std::string& name, std::string_view letters) {
  if (name.size() <= letters.size() || name.compare(0, letters.size(), letters) != 0) return false;
  std::size_t i = letters.size();
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  if (i == letters.size() || i >= name.size() || name[i] != '.') return false;
  name.erase(0, i + 1);
  return true;
}
}  // namespace

// "L3.qkv_proj" → "qkv_proj"; a microbatch prefix goes too ("mb1.L3.qkv_proj"), and the layer
// after a pass prefix ("bwd.L3.qkv_proj.dw" → "bwd.qkv_proj.dw", "recompute.L3.…").
std::string operation_of(const std::string& kernel_name) {
  std::string name = kernel_name;
  strip_numbered(name, "mb");
  for (std::string_view pass : {"bwd.", "recompute."})
    if (name.compare(0, pass.size(), pass) == 0) {
      std::string rest = name.substr(pass.size());
      if (strip_numbered(rest, "L")) return std::string(pass) + rest;
      return name;
    }
  strip_numbered(name, "L");
  return name;
}

}  // namespace hwsim
