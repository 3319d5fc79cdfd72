#pragma once
// Typed reads of a measurement record's JSON fields (nested objects included), absent or of
// another type as nullopt: what the record kinds' adapters check before they plan a run.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hwsim {

inline std::optional<std::int64_t> field_whole(const nlohmann::json& r, const char* key) {
  if (!r.contains(key) || !r[key].is_number_integer()) return std::nullopt;
  return r[key].get<std::int64_t>();
}

inline std::optional<std::string> field_text(const nlohmann::json& r, const char* key) {
  if (!r.contains(key) || !r[key].is_string()) return std::nullopt;
  return r[key].get<std::string>();
}

}  // namespace hwsim
