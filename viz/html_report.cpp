#include "viz/html_report.h"

#include <fmt/format.h>
#include <regex>

#include "viz/svg/charts.h"
#include "viz/svg/svg.h"

namespace hwsim {

namespace {
using svg::escape;
using svg::short_number;

constexpr const char* kStyle = R"(
body{font-family:sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse;font-size:12px}
td,th{padding:3px 8px;border-bottom:1px solid #e3e3e3;text-align:right}
td:first-child,th:first-child{text-align:left}
table.summary td:first-child{color:#555}
table.kernels th{cursor:pointer;background:#f4f4f4;position:sticky;top:0}
table.kernels td.t{text-align:left}
.note{color:#666;font-size:12px}
figure{margin:12px 0}
)";

// Click a header: sort by that column (numbers by data-v, text otherwise); again: reverse.
constexpr const char* kScript = R"(
document.querySelectorAll('table.kernels th').forEach(function(th, col) {
  th.addEventListener('click', function() {
    var body = th.closest('table').tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var dir = th.dataset.dir === 'asc' ? -1 : 1;
    th.dataset.dir = dir === 1 ? 'asc' : 'desc';
    rows.sort(function(a, b) {
      var x = a.cells[col], y = b.cells[col];
      var u = x.dataset.v, v = y.dataset.v;
      if (u !== undefined && v !== undefined) return dir * (parseFloat(u) - parseFloat(v));
      return dir * x.textContent.localeCompare(y.textContent);
    });
    rows.forEach(function(r) { body.appendChild(r); });
  });
});
document.body.setAttribute('data-ready', '1');
)";

std::string row(const std::string& name, const std::string& value) {
  return fmt::format("<tr><td>{}</td><td>{}</td></tr>\n", escape(name), escape(value));
}

std::string summary_table(const Config& config, const Workload& workload, const RunResult& r) {
  std::string t = "<table class=\"summary\">\n";
  t += row("chip", config.text("name")) + row("workload", workload.spec) + row("device", r.device_kind + ", " + r.level + " level");
  t += row("time", short_number(r.seconds) + "s") + row("achieved", short_number(r.achieved_flop_rate) + "FLOP/s");
  t += row("of peak", fmt::format("{:.1f} %", r.percent_of_peak)) + row("bound", r.bound);
  t += row("roofline floor", fmt::format("{}s (time is {:.2f}× the floor)", short_number(r.roofline_floor), r.times_floor));
  t += row("main-memory bandwidth", short_number(r.memory_bandwidth_achieved) + "B/s of " + short_number(r.peak_memory_bandwidth) + "B/s");
  t += row("energy", fmt::format("{}J, {}W average", short_number(r.energy), short_number(r.average_power)));
  if (r.llm.present) {
    t += row("tokens/s", fmt::format("{:.6g}", r.llm.tokens_per_second));
    if (r.llm.ttft > 0) t += row("TTFT", short_number(r.llm.ttft) + "s");
    if (r.llm.tpot > 0) t += row("TPOT", short_number(r.llm.tpot) + "s");
    t += row("MBU / MFU", fmt::format("{:.1f} % / {:.1f} %", 100 * r.llm.mbu, 100 * r.llm.mfu));
  }
  if (r.system.present)
    t += row("system", fmt::format("{}: {} of {} devices, {}", r.system.name, r.system.devices_used, r.system.devices,
                                   r.system.layout));
  return t + "</table>\n";
}

std::string number_cell(double v, const std::string& shown) {
  return fmt::format("<td data-v=\"{:.9g}\">{}</td>", v, escape(shown));
}

std::string kernel_table(const RunResult& r) {
  std::string t = "<table class=\"kernels\" id=\"kernels\">\n<thead><tr><th>#</th><th>step</th><th>name</th><th>class</th>"
                  "<th>dtype</th><th>seconds</th><th>FLOPs</th><th>min bytes</th><th>FLOP/byte</th>"
                  "<th>FLOP/s</th><th>× floor</th><th>bound</th><th>lowering</th></tr></thead>\n<tbody>\n";
  std::size_t n = 0, total = 0;
  for (const auto& s : r.steps) {
    for (const auto& k : s.records) {
      if (++total > kMaxTableRecords) continue;
      double ratio = k.roofline_floor > 0 ? k.seconds / k.roofline_floor : 0;
      t += "<tr>" + number_cell(double(n), std::to_string(n)) + "<td class=\"t\">" + escape(s.label) + "</td><td class=\"t\">" +
           escape(k.name) + "</td><td class=\"t\">" + escape(k.op_class) + "</td><td class=\"t\">" + escape(k.dtype) + "</td>" +
           number_cell(k.seconds, short_number(k.seconds)) + number_cell(k.flops, short_number(k.flops)) +
           number_cell(k.min_bytes, short_number(k.min_bytes)) +
           number_cell(k.arithmetic_intensity, fmt::format("{:.3g}", k.arithmetic_intensity)) +
           number_cell(k.achieved_flop_rate, short_number(k.achieved_flop_rate)) +
           number_cell(ratio, fmt::format("{:.2f}", ratio)) + "<td class=\"t\">" + escape(k.bound) + "</td><td class=\"t\">" +
           escape(k.config) + "</td></tr>\n";
      ++n;
    }
  }
  t += "</tbody></table>\n";
  if (total > n) t += fmt::format("<p class=\"note\">The first {} of {} records (run order).</p>\n", n, total);
  return t;
}

// An SVG element inside a page: the XML namespace stays, the standalone prolog is not needed.
std::string figure(const std::string& svg_text, const std::string& caption) {
  return "<figure>" + svg_text + "<figcaption class=\"note\">" + escape(caption) + "</figcaption></figure>\n";
}
}  // namespace

std::string html_report(const Config& config, const Workload& workload, const RunResult& r) {
  std::string title = fmt::format("hwsim: {} on {}", workload.spec, config.text("name"));
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + escape(title) +
                     "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n<h1>" + escape(title) + "</h1>\n";
  page += summary_table(config, workload, r);
  page += "<h2>Roofline</h2>\n" + figure(roofline_svg(r), "Each point is a " + r.unit +
                                                            "; hover for its name and figures. Roofs: peak FLOP/s of each dtype present, and the main-memory bandwidth slope; dashed: the ridge.");
  page += "<h2>Time breakdown</h2>\n" + figure(breakdown_svg(r), "Compute, memory stall, communication, overhead and idle, summed over the run.");
  page += "<h2>Timeline</h2>\n" + figure(timeline_svg(r), "One row per simulated device; steps one after another.");
  page += "<h2>" + escape(r.unit) + "s</h2>\n<p class=\"note\">Click a column to sort.</p>\n" + kernel_table(r);
  page += std::string("<script>") + kScript + "</script>\n</body>\n</html>\n";
  return page;
}

std::string svg_report(const RunResult& r) {
  std::vector<std::string> parts = {roofline_svg(r), breakdown_svg(r), timeline_svg(r)};
  static const std::regex size(R"re(<svg [^>]*width="([0-9.]+)" height="([0-9.]+)")re");
  double y = 0, width = 0;
  std::string body;
  for (const auto& p : parts) {
    std::smatch m;
    std::regex_search(p, m, size);
    double w = std::stod(m[1].str()), h = std::stod(m[2].str());
    body += "<g transform=\"translate(0," + fmt::format("{}", y) + ")\">\n" + p + "</g>\n";
    y += h + 10;
    width = std::max(width, w);
  }
  return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
                     "height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n{2}</svg>\n", width, y, body);
}

}  // namespace hwsim
