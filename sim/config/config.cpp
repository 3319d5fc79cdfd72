#include <fmt/format.h>
#include <sstream>
#include <stdexcept>
#include <toml++/toml.h>

#include "sim/config/config.h"

namespace hwsim {

Config::Config() = default;
Config::~Config() = default;
Config::Config(Config&&) noexcept = default;
Config& Config::operator=(Config&&) noexcept = default;

const ParamValue& Config::value(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) throw std::logic_error("hwsim: parameter read but never declared: " + key);
  return it->second;
}

double Config::number(const std::string& key) const { return value(key).number; }
std::int64_t Config::whole(const std::string& key) const { return std::int64_t(value(key).number); }
const std::string& Config::text(const std::string& key) const { return value(key).text; }
bool Config::flag(const std::string& key) const { return value(key).flag; }

std::string Config::resolved_json() const {
  std::ostringstream out;
  out << toml::json_formatter{*resolved_};
  return out.str();
}

}  // namespace hwsim
