#include "workloads/spec.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>

#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "sim/input_file.h"

namespace hwsim {

namespace {
std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t");
  auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}
}  // namespace

WorkloadSpec WorkloadSpec::parse(const std::string& text) {
  // Every error about a spec quotes it: one line of bounded length, so no quote splits or floods
  // an error line.
  if (text.size() > kMaxSpecLength)
    workload_error(fmt::format("workload '{}': {} characters is too long for a spec (at most {})", shorten(text),
                               text.size(), kMaxSpecLength));
  if (std::any_of(text.begin(), text.end(), [](char c) { return (unsigned char)c < 0x20 || c == 0x7f; }))
    workload_error(fmt::format("workload '{}': a control character (a line break?) in the spec", shorten(text)));
  WorkloadSpec spec;
  spec.text_ = text;
  auto colon = text.find(':');
  spec.name_ = trim(text.substr(0, colon));
  if (spec.name_.empty()) workload_error(fmt::format("workload '{}': missing workload name before ':'", shorten(text, 200)));
  if (colon == std::string::npos) return spec;
  std::string rest = text.substr(colon + 1);
  std::size_t start = 0;
  while (start <= rest.size()) {
    auto comma = rest.find(',', start);
    std::string item = trim(rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!item.empty()) {
      auto eq = item.find('=');
      if (eq == std::string::npos || eq == 0)
        workload_error(fmt::format("workload '{}': '{}' is not KEY=VALUE", shorten(text, 200), shorten(item)));
      std::string key = trim(item.substr(0, eq));
      if (spec.fields_.count(key)) workload_error(fmt::format("workload '{}': {} given twice", shorten(text, 200), shorten(key)));
      spec.fields_[key] = trim(item.substr(eq + 1));
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return spec;
}

void WorkloadSpec::fail(const std::string& key, const std::string& what) const {
  workload_error(fmt::format("workload '{}': {}: {}", shorten(text_, 200), shorten(key), what));
}

const std::string* WorkloadSpec::raw(const std::string& key) const {
  auto it = fields_.find(key);
  if (it == fields_.end()) return nullptr;
  used_.insert(key);
  return &it->second;
}

void WorkloadSpec::missing(const std::string& key, const std::string& what) const {
  // A field never read that is a misspelling of the missing one is the mistake to name.
  for (const auto& [field, value] : fields_)
    if (!used_.count(field) && !did_you_mean(field, {key}).empty())
      fail(field, fmt::format("unknown field{}", did_you_mean(field, {key})));
  fail(key, "missing (" + what + ")");
}

std::int64_t WorkloadSpec::positive_int(const std::string& key) const {
  if (!raw(key)) missing(key, "a whole number >= 1");
  return positive_int(key, 0);
}

std::int64_t WorkloadSpec::positive_int(const std::string& key, std::int64_t fallback, std::int64_t at_most) const {
  return whole_in(key, fallback, 1, at_most);
}

std::int64_t WorkloadSpec::non_negative_int(const std::string& key, std::int64_t fallback, std::int64_t at_most) const {
  return whole_in(key, fallback, 0, at_most);
}

std::int64_t WorkloadSpec::whole_in(const std::string& key, std::int64_t fallback, std::int64_t lowest,
                                    std::int64_t at_most) const {
  const std::string* s = raw(key);
  if (!s) return fallback;
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(s->data(), s->data() + s->size(), v);
  bool whole = end == s->data() + s->size();
  if (whole && (ec == std::errc::result_out_of_range || (ec == std::errc() && v > at_most)))
    fail(key, fmt::format("'{}' is out of range (a whole number between {} and {})", shorten(*s), lowest, at_most));
  if (ec != std::errc() || !whole) fail(key, fmt::format("'{}' is not a whole number", shorten(*s)));
  if (v < 0) fail(key, fmt::format("'{}' is negative", shorten(*s)));
  if (v < lowest) fail(key, fmt::format("'{}' must be at least {}", shorten(*s), lowest));
  return v;
}

double WorkloadSpec::positive_real(const std::string& key, double fallback, double at_most) const {
  const std::string* s = raw(key);
  if (!s) return fallback;
  double v = 0;
  auto [end, ec] = std::from_chars(s->data(), s->data() + s->size(), v);
  if (ec != std::errc() || end != s->data() + s->size() || !std::isfinite(v))
    fail(key, fmt::format("'{}' is not a finite number", shorten(*s)));
  if (!(v > 0)) fail(key, fmt::format("'{}' must be greater than zero", shorten(*s)));
  if (v < kMinSpecReal || v > at_most)
    fail(key, fmt::format("'{}' is out of range (a number between {:g} and {:g})", shorten(*s), kMinSpecReal, at_most));
  return v;
}

DType WorkloadSpec::dtype(const std::string& key, DType fallback) const {
  const std::string* s = raw(key);
  if (!s) return fallback;
  auto t = parse_dtype(*s);
  if (!t) fail(key, fmt::format("unknown dtype '{}'; valid: {}{}", shorten(*s), join(dtype_names()), did_you_mean(*s, dtype_names())));
  return *t;
}

bool WorkloadSpec::boolean(const std::string& key, bool fallback) const {
  const std::string* s = raw(key);
  if (!s) return fallback;
  if (*s == "true" || *s == "1") return true;
  if (*s == "false" || *s == "0") return false;
  fail(key, fmt::format("'{}' is not true or false", shorten(*s)));
}

std::string WorkloadSpec::word(const std::string& key, const std::string& fallback) const {
  const std::string* s = raw(key);
  return s ? *s : fallback;
}

void WorkloadSpec::reject_unused(const std::vector<std::string>& valid) const {
  for (const auto& [key, value] : fields_) {
    if (used_.count(key)) continue;
    workload_error(fmt::format("workload '{}': {}: unknown field{}; valid fields: {}", shorten(text_, 200), shorten(key),
                               did_you_mean(key, valid), join(valid)));
  }
}

WorkloadSpec WorkloadSpec::with_defaults(const std::map<std::string, std::string>& defaults) const {
  WorkloadSpec out = *this;
  for (const auto& [k, v] : defaults) out.fields_.emplace(k, v);
  return out;
}

}  // namespace hwsim
