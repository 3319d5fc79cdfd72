#include "viz/system_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cmath>

#include "sim/units.h"

namespace hwsim {

namespace {
std::string seconds(double s) { return format_quantity(s, Dimension::time, 4); }
std::string bytes(double b) { return format_quantity(b, Dimension::bytes); }
std::string percent(double part, double whole) { return whole > 0 ? fmt::format("{:.1f} %", 100 * part / whole) : "-"; }

// nccl-tests' names for a dtype, a collective's reduction and root.
std::string nccl_type(const std::string& dtype) {
  if (dtype == "fp32") return "float";
  if (dtype == "fp16") return "half";
  if (dtype == "bf16") return "bfloat16";
  if (dtype == "fp8") return "f8e4m3";
  if (dtype == "int8") return "int8";
  return dtype;
}
bool reduces(const std::string& op) { return op == "all_reduce" || op == "reduce_scatter" || op == "reduce"; }

// The table nccl-tests prints (all_reduce_perf -b 8 -e 128M -f 2): size, count, type, redop, root,
// then time, algbw, busbw and #wrong out of place and in place (the model does not tell them
// apart: the same figures; no data is checked: N/A), and the average bus bandwidth.
void print_sweep(std::ostream& out, const RunResult& r) {
  const auto& points = r.system.collectives;
  fmt::print(out, "\n  #{:>62}{:>33}\n", "out-of-place", "in-place");
  fmt::print(out, "  #{:>11} {:>13} {:>9} {:>7} {:>7} {:>8} {:>7} {:>7} {:>6} {:>8} {:>7} {:>7} {:>6}\n", "size", "count",
             "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong");
  fmt::print(out, "  #{:>11} {:>13} {:>9} {:>7} {:>7} {:>8} {:>7} {:>7} {:>6} {:>8} {:>7} {:>7} {:>6}\n", "(B)", "(elements)",
             "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
  double sum = 0;
  for (const CollectivePoint& p : points) {
    double element = p.dtype == "fp32" ? 4 : p.dtype == "fp8" || p.dtype == "int8" ? 1 : 2;
    std::string half = fmt::format("{:>8.2f} {:>7.2f} {:>7.2f} {:>6}", p.seconds * 1e6, p.algbw / 1e9, p.busbw / 1e9, "N/A");
    fmt::print(out, "  {:>12.0f} {:>13.0f} {:>9} {:>7} {:>7} {} {}\n", p.bytes, std::floor(p.bytes / element),
               nccl_type(p.dtype), reduces(p.op) ? "sum" : "none", p.op == "broadcast" ? "0" : "-1", half, half);
    sum += p.busbw / 1e9;
  }
  fmt::print(out, "  # Out of bounds values : 0 OK\n  # Avg bus bandwidth    : {:.4f}\n", sum / double(points.size()));
  fmt::print(out, "\n  {:>12}  {:>11}  {}\n", "size (B)", "link bytes", "algorithm (hwsim's choice)");
  for (const CollectivePoint& p : points)
    fmt::print(out, "  {:>12.0f}  {:>11}  {}\n", p.bytes, bytes(p.link_bytes), p.algorithm);
}

void print_stages(std::ostream& out, const RunResult& r) {
  const SystemMetrics& m = r.system;
  fmt::print(out, "\n  {:<22} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>14}\n", "device (per stage)", "compute",
             "memory", "comm", "overlap", "overhead", "idle", "memory held");
  for (const auto& d : m.stages)
    fmt::print(out, "  {:<22} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>14}\n", d.label, seconds(d.compute),
               seconds(d.memory), seconds(d.communication), seconds(d.communication_overlapped), seconds(d.overhead),
               seconds(d.idle),
               d.memory_held > 0 ? fmt::format("{} of {}", bytes(d.memory_held), bytes(d.memory_capacity)) : "-");
}
}  // namespace

void print_system_section(std::ostream& out, const RunResult& r) {
  const SystemMetrics& m = r.system;
  if (!m.present) return;
  auto row = [&](std::string_view label, const std::string& value) { fmt::print(out, "  {:<28} {}\n", label, value); };
  fmt::print(out, "\n  system {}\n", m.name);
  row("devices", fmt::format("{} of {} × {} used ({})", m.devices_used, m.devices, m.chip, m.layout));
  row("fabric", m.fabric);
  row("collectives", fmt::format("{} in all, {} not hidden behind compute", seconds(m.collective_seconds),
                                 seconds(m.communication_exposed)));
  row("link traffic", fmt::format("{} over all hops, {}", bytes(m.link_bytes), format_quantity(m.link_energy, Dimension::energy)));
  row("energy, all devices + links", format_quantity(m.energy, Dimension::energy));
  if (m.collectives_only()) print_sweep(out, r);
  else print_stages(out, r);
  if (m.busiest_links.empty()) return;
  fmt::print(out, "\n  {:<34} {:>12} {:>11} {:>8}\n", "busiest link directions", "usable", "bytes", "busy");
  for (const auto& l : m.busiest_links)
    fmt::print(out, "  {:<34} {:>12} {:>11} {:>8}\n", l.name.substr(0, 34), format_quantity(l.capacity, Dimension::bandwidth),
               bytes(l.bytes), percent(l.utilisation, 1));
}

nlohmann::json system_json(const RunResult& r) {
  const SystemMetrics& m = r.system;
  if (!m.present) return nullptr;
  nlohmann::json stages = nlohmann::json::array();
  for (const auto& d : m.stages)
    stages.push_back({{"label", d.label}, {"ranks", d.ranks}, {"compute", d.compute}, {"memory", d.memory},
                      {"communication", d.communication}, {"communication_overlapped", d.communication_overlapped},
                      {"overhead", d.overhead}, {"idle", d.idle}, {"flops", d.flops}, {"energy", d.energy},
                      {"memory_held", d.memory_held}, {"memory_capacity", d.memory_capacity}});
  nlohmann::json links = nlohmann::json::array();
  for (const auto& l : m.busiest_links)
    links.push_back({{"name", l.name}, {"capacity", l.capacity}, {"bytes", l.bytes}, {"utilisation", l.utilisation}});
  return {{"name", m.name}, {"chip", m.chip}, {"fabric", m.fabric}, {"devices", m.devices},
          {"devices_used", m.devices_used}, {"layout", m.layout}, {"stages", stages},
          {"collective_seconds", m.collective_seconds}, {"communication_exposed", m.communication_exposed},
          {"link_bytes", m.link_bytes}, {"link_energy", m.link_energy}, {"busiest_links", links},
          {"flops", m.flops}, {"energy", m.energy}};
}

nlohmann::json collective_json(const RunResult& r) {
  nlohmann::json sweep = nlohmann::json::array();
  for (const CollectivePoint& p : r.system.collectives)
    sweep.push_back({{"bytes", p.bytes}, {"ranks", p.ranks}, {"seconds", p.seconds}, {"algbw", p.algbw / 1e9},
                     {"busbw", p.busbw / 1e9}, {"link_bytes", p.link_bytes}, {"op", p.op}, {"algorithm", p.algorithm}});
  if (sweep.empty()) return nullptr;
  nlohmann::json doc = sweep.front();
  doc["sweep"] = sweep;
  return doc;
}

}  // namespace hwsim
