#include "viz/validation_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <ostream>
#include <set>

#include "sim/units.h"

namespace hwsim {

namespace {
bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Figures a measurement reports (timings, clocks, power, counts of samples), not what was run.
bool measured_figure(const std::string& key) {
  for (std::string_view tail : {"_s", "_mhz", "_w", "_j", "_c", "_fraction", "_hist", "_per_call", "samples", "calls",
                                "energy_source", "what", "case_id", "chunk", "tbps", "pj_per_flop", "seconds_mean"})
    if (ends_with(key, tail)) return true;
  return false;
}

std::string describe(const Measurement& m) {
  std::string out;
  for (const auto& [key, value] : m.fields.items()) {
    if (key == "kind" || key == "device" || key == "seconds" || key == "chip" || key == "role" || key == "set" ||
        key == "source" || key == "software" || key == "tmin" || key == "tmax" ||
        key == "flops" || key == "bytes" || key == "tflops" || key == "layout" || value.is_object() ||
        value.is_array() || measured_figure(key))
      continue;
    if (!out.empty()) out += ",";
    out += key + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
  }
  return out;
}

Dimension dimension_of(const std::string& quantity) {
  if (quantity == "joules") return Dimension::energy;
  if (quantity == "hertz") return Dimension::frequency;
  return Dimension::time;
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
}  // namespace

namespace {
const char* role_word(const std::string& role) { return role == "fit" ? "fitted" : "judged"; }

void print_uncompared(std::ostream& out, const ValidationReport& report) {
  const std::string blank(22, ' ');
  for (const auto& [kind, n] : report.skipped)
    fmt::print(out, "  {} {:<22} {:>13}   skipped (not modelled, or not on this kind of chip)\n", blank, kind, n);
  for (const auto& [kind, n] : report.excluded)
    fmt::print(out, "  {} {:<22} {:>13}   left out: they fitted parameters (--exclude)\n", blank, kind, n);
  for (const auto& [kind, n] : report.unplaced)
    fmt::print(out, "  {} {:<22} {:>13}   name no chip: give --chip or --system, or the record a `chip` field\n", blank,
               kind, n);
  for (const auto& [kind, why] : report.cannot_run)
    fmt::print(out, "  {} {:<22} {:>13}   cannot run on this chip (first: {})\n", blank, kind, why.first, why.second);
}
}  // namespace

// One line per chip, kind and role (fitted records apart from judged ones), then what was not
// compared, then each summary's worst cases.
void print_validation_report(std::ostream& out, const ValidationReport& report, const std::string& file,
                             const std::string& chip) {
  if (report.per_record_targets)
    fmt::print(out, "hwsim validate {} (each record on its own chip)\n\n", file);
  else
    fmt::print(out, "hwsim validate {} --chip {}\n\n", file, chip);
  fmt::print(out, "  {:<22} {:<22} {:<6} {:>6} {:>9} {:>13}\n", "chip", "kind", "role", "count", "MAPE", "median |err|");
  for (const auto& k : report.kinds)
    fmt::print(out, "  {:<22} {:<22} {:<6} {:>6} {:>8.2f}% {:>12.2f}%\n", k.target, k.kind, role_word(k.role), k.count,
               k.mape, k.median_error);
  print_uncompared(out, report);
  for (const auto& k : report.kinds) {
    fmt::print(out, "\n  worst {} cases on {} ({})\n", k.kind, k.target, role_word(k.role));
    for (const auto& r : k.worst)
      fmt::print(out, "    line {:>4}  {:<40} measured {:>10}  predicted {:>10}  {:+.1f}%\n", r.measurement.line,
                 describe(r.measurement), format_quantity(r.measured, dimension_of(r.quantity), 4),
                 format_quantity(r.predicted, dimension_of(r.quantity), 4), 100 * r.error);
  }
}

void write_validation_csv(std::ostream& out, const ValidationReport& report) {
  std::set<std::string> keys;
  for (const auto& r : report.rows)
    for (const auto& [key, value] : r.measurement.fields.items())
      if (key != "kind" && key != "seconds") keys.insert(key);
  // measured_s and predicted_s are in the row's `quantity` (seconds unless it says joules or hertz).
  out << "kind,measured_s,predicted_s,error_pct,workload,quantity,run_on,counted_as";
  for (const auto& k : keys) out << "," << csv_cell(k);
  out << "\n";
  for (const auto& r : report.rows) {
    out << csv_cell(r.measurement.kind) << "," << fmt::format("{:.9g},{:.9g},{:.3f}", r.measured, r.predicted, 100 * r.error)
        << "," << csv_cell(r.workload) << "," << r.quantity << "," << csv_cell(r.target) << ","
        << (r.role == "fit" ? "fitted" : "judged");
    for (const auto& k : keys) {
      out << ",";
      if (r.measurement.fields.contains(k)) {
        const auto& v = r.measurement.fields[k];
        out << csv_cell(v.is_string() ? v.get<std::string>() : v.dump());
      }
    }
    out << "\n";
  }
}

}  // namespace hwsim
