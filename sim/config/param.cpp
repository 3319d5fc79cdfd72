#include "sim/config/param.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace hwsim {

namespace {
ParamDecl make(std::string key, ParamType type, std::string description) {
  ParamDecl d;
  d.key = std::move(key);
  d.type = type;
  d.description = std::move(description);
  return d;
}
}  // namespace

ParamDecl count_param(std::string key, std::string description) {
  return make(std::move(key), ParamType::count, std::move(description));
}
ParamDecl integer_param(std::string key, std::string description) {
  return make(std::move(key), ParamType::integer, std::move(description));
}
ParamDecl real_param(std::string key, std::string description) {
  return make(std::move(key), ParamType::real, std::move(description));
}
ParamDecl fraction_param(std::string key, std::string description) {
  return make(std::move(key), ParamType::fraction, std::move(description));
}
ParamDecl quantity_param(std::string key, Dimension dimension, std::string description) {
  ParamDecl d = make(std::move(key), ParamType::quantity, std::move(description));
  d.dimension = dimension;
  return d;
}
ParamDecl choice_param(std::string key, std::vector<std::string> choices, std::string description) {
  ParamDecl d = make(std::move(key), ParamType::choice, std::move(description));
  d.choices = std::move(choices);
  return d;
}
ParamDecl text_param(std::string key, std::string description) {
  return make(std::move(key), ParamType::text, std::move(description));
}
ParamDecl bool_param(std::string key, std::string description) {
  return make(std::move(key), ParamType::boolean, std::move(description));
}

std::string type_label(const ParamDecl& decl) {
  switch (decl.type) {
    case ParamType::count: return "count";
    case ParamType::integer: return "integer";
    case ParamType::real: return "number";
    case ParamType::fraction: return "fraction";
    case ParamType::quantity: return std::string(dimension_name(decl.dimension));
    case ParamType::choice: return "choice";
    case ParamType::text: return "text";
    case ParamType::boolean: return "bool";
  }
  return "?";
}

ParamCatalog& ParamCatalog::instance() {
  static ParamCatalog catalog;
  return catalog;
}

void ParamCatalog::add(ParamDecl decl) {
  if (find(decl.key)) {
    std::fprintf(stderr, "hwsim: internal error: parameter %s declared twice\n", decl.key.c_str());
    std::abort();
  }
  auto at = std::lower_bound(decls_.begin(), decls_.end(), decl.key,
                             [](const ParamDecl& d, const std::string& k) { return d.key < k; });
  decls_.insert(at, std::move(decl));
}

const ParamDecl* ParamCatalog::find(const std::string& key) const {
  auto at = std::lower_bound(decls_.begin(), decls_.end(), key,
                             [](const ParamDecl& d, const std::string& k) { return d.key < k; });
  return (at != decls_.end() && at->key == key) ? &*at : nullptr;
}

std::vector<std::string> ParamCatalog::keys() const {
  std::vector<std::string> out;
  out.reserve(decls_.size());
  for (const auto& d : decls_) out.push_back(d.key);
  return out;
}

std::vector<std::string> ParamCatalog::keys_for(const std::string& kind) const {
  std::vector<std::string> out;
  for (const auto& d : decls_)
    if (applies_to(d, kind)) out.push_back(d.key);
  return out;
}

bool applies_to(const ParamDecl& decl, const std::string& kind) {
  return decl.kinds.empty() || std::find(decl.kinds.begin(), decl.kinds.end(), kind) != decl.kinds.end();
}

std::string component_of(const std::string& key) {
  auto dot = key.rfind('.');
  return dot == std::string::npos ? std::string() : key.substr(0, dot);
}

ParamRegistration::ParamRegistration(std::vector<ParamDecl> decls) {
  for (auto& d : decls) ParamCatalog::instance().add(std::move(d));
}

ParamRegistration::ParamRegistration(std::vector<std::string> kinds, std::vector<ParamDecl> decls) {
  for (auto& d : decls) {
    d.kinds = kinds;
    ParamCatalog::instance().add(std::move(d));
  }
}

}  // namespace hwsim
