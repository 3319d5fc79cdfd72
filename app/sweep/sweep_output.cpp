#include "app/sweep/sweep_output.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sys/stat.h>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <sstream>

#include "app/sweep/sweep_row.h"
#include "sim/input_file.h"
#include "sim/error.h"

namespace hwsim {

namespace {
bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string csv_cell(const nlohmann::ordered_json& v) {
  if (v.is_null()) return {};
  std::string text = v.is_string() ? v.get<std::string>() : v.dump();
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// A row's index and varied values, from its line.
std::pair<std::size_t, std::vector<std::string>> row_point(SweepFormat format, const std::vector<std::string>& columns,
                                                           const SweepSpec& spec, const std::string& line) {
  std::vector<std::string> values;
  if (format == SweepFormat::csv) {
    auto cells = split_csv_line(line);
    if (cells.size() != columns.size()) throw std::invalid_argument("cells");
    for (std::size_t k = 0; k < spec.axes.size(); ++k) values.push_back(cells[1 + k]);
    return {std::stoull(cells[0]), values};
  }
  auto j = nlohmann::json::parse(line);
  for (const auto& a : spec.axes) values.push_back(j.at(a.key).get<std::string>());
  return {j.at("index").get<std::size_t>(), values};
}
// A resumed row's cells by column (the varied values, status, metrics).
std::map<std::string, std::string> row_cells(SweepFormat format, const std::vector<std::string>& columns,
                                             const std::string& line) {
  std::map<std::string, std::string> cells;
  if (format == SweepFormat::csv) {
    auto values = split_csv_line(line);
    for (std::size_t i = 0; i < values.size() && i < columns.size(); ++i) cells[columns[i]] = values[i];
    return cells;
  }
  for (const auto& [key, value] : nlohmann::json::parse(line).items())
    cells[key] = value.is_string() ? value.get<std::string>() : value.is_null() ? "" : value.dump();
  return cells;
}

// What is wrong with a resumed row's figures ("" when nothing): a kept row is never run again, so
// an edited one (seconds = -5) must not pass as a result. A finished row's metrics are finite and
// >= 0 where given, its seconds > 0; an error row carries its error line.
std::string bad_figures(const SweepSpec& spec, const std::map<std::string, std::string>& cells) {
  auto at = [&](const std::string& key) { auto it = cells.find(key); return it == cells.end() ? std::string() : it->second; };
  const std::string status = at("status");
  if (status == "error") return at("error").empty() ? "status error without its error line" : "";
  if (status != "ok") return fmt::format("status: '{}' is not ok or error", shorten(status, 40));
  for (const auto& column : plot_metric_columns(spec)) {
    const std::string text = at(column);
    if (text.empty()) continue;
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !std::isfinite(v) || v < 0 || (column == "seconds" && v <= 0))
      return fmt::format("{}: {} is not a {} number", column, shorten(text, 40),
                         column == "seconds" ? "positive" : "finite, non-negative");
  }
  return "";
}
}  // namespace

SweepFormat sweep_format(const std::string& path) {
  if (path == "-" || ends_with(path, ".csv")) return SweepFormat::csv;
  if (ends_with(path, ".jsonl")) return SweepFormat::jsonl;
  usage_error(fmt::format("sweep --out {}: unknown format: name it FILE.csv or FILE.jsonl", path));
}

std::vector<std::string> sweep_columns(const SweepSpec& spec) {
  std::vector<std::string> c = {"index"};
  for (const auto& a : spec.axes) c.push_back(a.key);
  c.push_back("status");
  for (const auto& m : sweep_metric_columns()) c.push_back(m);
  if (serving_sweep(spec))
    for (const auto& m : serving_metric_columns()) c.push_back(m);
  c.push_back("error");
  return c;
}

std::string sweep_header(SweepFormat format, const std::vector<std::string>& columns) {
  if (format == SweepFormat::jsonl) return {};
  std::string line;
  for (const auto& c : columns) {
    if (!line.empty()) line += ',';
    line += csv_cell(c);
  }
  return line + "\n";
}

std::string sweep_line(SweepFormat format, const std::vector<std::string>& columns, const nlohmann::ordered_json& row) {
  if (format == SweepFormat::jsonl) return row.dump() + "\n";
  std::string line;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i) line += ',';
    if (auto it = row.find(columns[i]); it != row.end()) line += csv_cell(*it);
  }
  return line + "\n";
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') cells.back() += '"', ++i;
      else if (c == '"') quoted = false;
      else cells.back() += c;
    } else if (c == '"') quoted = true;
    else if (c == ',') cells.emplace_back();
    else cells.back() += c;
  }
  return cells;
}

std::map<std::size_t, std::string> read_done_rows(const std::string& path, SweepFormat format,
                                                  const std::vector<std::string>& columns,
                                                  const SweepSpec& spec, const std::vector<SweepPoint>& points) {
  std::map<std::size_t, std::string> rows;
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return rows;  // nothing yet: every point runs
  // A regular file of bounded size (a link to /dev/zero was read until memory ran out; a FIFO blocked).
  std::string text = read_input_file(path, "sweep output to resume", kMaxResumedBytes);
  // A sweep killed mid-write leaves a last line without its '\n': that point runs again.
  text.erase(text.find_last_of('\n') == std::string::npos ? 0 : text.find_last_of('\n') + 1);
  std::istringstream in(text);
  std::string line;
  int number = 0;
  auto other = [&](const std::string& what) {
    usage_error(fmt::format("{}:{}: --resume: {} (not this sweep's output: move it away or drop --resume)", path, number, what));
  };
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    if (format == SweepFormat::csv && number == 1) {
      if (line + "\n" != sweep_header(format, columns)) other("its columns differ from this sweep's");
      continue;
    }
    std::pair<std::size_t, std::vector<std::string>> p;
    try {
      p = row_point(format, columns, spec, line);
    } catch (const std::exception&) {
      other("a row this sweep cannot read");
    }
    if (p.first >= points.size()) other(fmt::format("point {} is beyond this sweep's {} points", p.first, points.size()));
    if (p.second != points[p.first].values) other(fmt::format("point {} has other values than this sweep's", p.first));
    std::string bad;
    try {
      bad = bad_figures(spec, row_cells(format, columns, line));
    } catch (const std::exception&) {
      bad = "a row this sweep cannot read";
    }
    if (!bad.empty())
      usage_error(fmt::format("{}:{}: --resume: {} (an edited row? move the file away or drop --resume)", path, number, bad));
    rows[p.first] = line + "\n";
  }
  return rows;
}

}  // namespace hwsim
