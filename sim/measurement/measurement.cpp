#include "sim/measurement/measurement.h"

#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <sstream>

#include "sim/error.h"
#include "sim/input_file.h"

namespace hwsim {

// The shortest time a record may hold: a picosecond, far below any kernel or step measured.
constexpr double kMinMeasuredSeconds = 1e-12;

std::map<std::string, MeasurementAdapter>& MeasurementKinds::adapters() {
  static std::map<std::string, MeasurementAdapter> map;
  return map;
}

std::map<std::string, std::string>& MeasurementKinds::descriptions() {
  static std::map<std::string, std::string> map;
  return map;
}

bool MeasurementKinds::add(const std::string& kind, std::string description, MeasurementAdapter adapter) {
  descriptions()[kind] = std::move(description);
  adapters()[kind] = std::move(adapter);
  return true;
}

void record_fail(const Measurement& m, const std::string& key, const std::string& what) {
  io_error(fmt::format("{}:{}: {}: {}", shorten(m.file), m.line, shorten(key), what));
}

namespace {

const nlohmann::json* record_field(const Measurement& m, const std::string& key) {
  auto it = m.fields.find(key);
  return it == m.fields.end() || it->is_null() ? nullptr : &*it;
}
}  // namespace

std::optional<double> record_number(const Measurement& m, const std::string& key) {
  const nlohmann::json* v = record_field(m, key);
  if (!v) return std::nullopt;
  if (!v->is_number()) record_fail(m, key, fmt::format("{} is not a number", shorten(v->dump(), 40)));
  double x = v->get<double>();
  if (!std::isfinite(x)) record_fail(m, key, "is not a finite number");
  return x;
}

std::optional<std::int64_t> record_whole(const Measurement& m, const std::string& key, std::int64_t lowest) {
  auto x = record_number(m, key);
  if (!x) return std::nullopt;
  if (*x < double(lowest) || *x > kMaxRecordWhole || *x != std::floor(*x))
    record_fail(m, key, fmt::format("{:.6g} is not a whole number between {} and 2^53", *x, lowest));
  return std::int64_t(*x);
}

std::optional<std::string> record_text(const Measurement& m, const std::string& key) {
  const nlohmann::json* v = record_field(m, key);
  if (!v) return std::nullopt;
  if (!v->is_string()) record_fail(m, key, fmt::format("{} is not a string", shorten(v->dump(), 40)));
  return v->get<std::string>();
}

std::optional<std::string> record_word(const Measurement& m, const std::string& key) {
  auto text = record_text(m, key);
  if (text && (text->empty() || text->find_first_of(",=: \t\r\n") != std::string::npos))
    record_fail(m, key, fmt::format("'{}' is not one name (a model's name or file, without , = : or spaces)",
                                    shorten(*text, 60)));
  return text;
}

std::optional<bool> record_flag(const Measurement& m, const std::string& key) {
  const nlohmann::json* v = record_field(m, key);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) record_fail(m, key, fmt::format("{} is not true or false", shorten(v->dump(), 40)));
  return v->get<bool>();
}

std::optional<std::vector<std::string>> record_texts(const Measurement& m, const std::string& key) {
  if (!m.fields.contains(key) || m.fields[key].is_null()) return std::nullopt;
  const auto& v = m.fields[key];
  if (!v.is_array()) record_fail(m, key, fmt::format("{} is not a list of strings", shorten(v.dump(), 40)));
  std::vector<std::string> out;
  for (const auto& item : v) {
    if (!item.is_string()) record_fail(m, key, fmt::format("{} is not a string", shorten(item.dump(), 40)));
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::vector<Measurement> read_measurements(const std::string& path) {
  std::istringstream in(read_input_file(path, "measurement file"));
  std::vector<Measurement> out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json record;
    try {
      record = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& e) {  // a syntax error, or a number past a double (406)
      io_error(fmt::format("{}:{}: not a JSON object: {}", path, number, shorten(e.what(), 160)));
    }
    if (!record.is_object() || !record.contains("kind") || !record["kind"].is_string())
      io_error(fmt::format("{}:{}: a record needs a string field \"kind\"", path, number));
    Measurement m;
    m.kind = record["kind"].get<std::string>();
    m.fields = std::move(record);
    m.line = number;
    m.file = path;
    // A measured time is positive: 0 or a negative one would make every error percentage nonsense,
    // and one below a picosecond (5e-324 s) is no measurement (its error prints as inf %).
    if (auto s = record_number(m, "seconds")) {
      if (!(*s > 0)) record_fail(m, "seconds", fmt::format("{:.6g} is not a positive time in seconds", *s));
      if (*s < kMinMeasuredSeconds)
        record_fail(m, "seconds", fmt::format("{:.6g} s is below any measurable time (at least {:g} s)", *s,
                                              kMinMeasuredSeconds));
      m.seconds = *s;
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace hwsim
