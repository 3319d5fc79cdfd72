#include "app/validate/measurement.h"

#include <fmt/format.h>
#include <fstream>

#include "sim/error.h"

namespace hwsim {

std::map<std::string, MeasurementAdapter>& MeasurementKinds::adapters() {
  static std::map<std::string, MeasurementAdapter> map;
  return map;
}

bool MeasurementKinds::add(const std::string& kind, MeasurementAdapter adapter) {
  adapters()[kind] = std::move(adapter);
  return true;
}

std::vector<Measurement> read_measurements(const std::string& path) {
  std::ifstream in(path);
  if (!in) io_error(fmt::format("{}: cannot open measurement file", path));
  std::vector<Measurement> out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json record;
    try {
      record = nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& e) {
      io_error(fmt::format("{}:{}: not a JSON object: {}", path, number, e.what()));
    }
    if (!record.is_object() || !record.contains("kind") || !record["kind"].is_string())
      io_error(fmt::format("{}:{}: a record needs a string field \"kind\"", path, number));
    Measurement m;
    m.kind = record["kind"].get<std::string>();
    if (record.contains("seconds") && record["seconds"].is_number()) m.seconds = record["seconds"].get<double>();
    m.fields = std::move(record);
    m.line = number;
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace hwsim
