#include "viz/html_report.h"

#include <fmt/format.h>

#include "viz/html_page.h"
#include "viz/svg/charts.h"
#include "viz/svg/svg.h"

namespace hwsim {

namespace {
using html::figure;
using html::number_cell;
using html::row;
using svg::escape;
using svg::short_number;

std::string summary_table(const Config& config, const Workload& workload, const RunResult& r) {
  std::string t = "<table class=\"summary\">\n";
  t += row("chip", config.text("name")) + row("workload", workload.spec) + row("device", r.device_kind + ", " + r.level + " level");
  t += row("time", short_number(r.seconds) + "s") + row("achieved", short_number(r.achieved_flop_rate) + "FLOP/s");
  t += row("of peak", fmt::format("{:.1f} %", r.percent_of_peak)) + row("bound", r.bound);
  t += row("roofline floor", fmt::format("{}s (time is {:.2f}× the floor)", short_number(r.roofline_floor), r.times_floor));
  t += row("main-memory bandwidth", short_number(r.memory_bandwidth_achieved) + "B/s of " + short_number(r.peak_memory_bandwidth) + "B/s");
  t += row("energy", fmt::format("{}J, {}W average", short_number(r.energy), short_number(r.average_power)));
  if (r.power.average_clock > 0)
    t += row("SM clock", fmt::format("{}Hz average of {}Hz, throttled {:.0f} % of the time", short_number(r.power.average_clock),
                                     short_number(r.power.max_clock), 100 * r.power.throttled_share));
  if (r.llm.present) {
    t += row("tokens/s", fmt::format("{:.6g}", r.llm.tokens_per_second));
    if (r.llm.ttft > 0) t += row("TTFT", short_number(r.llm.ttft) + "s");
    if (r.llm.tpot > 0) t += row("TPOT", short_number(r.llm.tpot) + "s");
    t += row("MBU / MFU", fmt::format("{:.1f} % / {:.1f} %", 100 * r.llm.mbu, 100 * r.llm.mfu));
    t += row("energy per token", fmt::format("{}J ({:.3g} tokens/J)", short_number(r.llm.joules_per_token), r.llm.tokens_per_joule));
  }
  if (r.system.present)
    t += row("system", fmt::format("{}: {} of {} devices, {}", r.system.name, r.system.devices_used, r.system.devices,
                                   r.system.layout));
  return t + "</table>\n";
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

}  // namespace

std::string html_report(const Config& config, const Workload& workload, const RunResult& r) {
  std::string title = fmt::format("hwsim: {} on {}", workload.spec, config.text("name"));
  std::string page = summary_table(config, workload, r);
  page += "<h2>Roofline</h2>\n" +
          figure(roofline_svg(r), "Each point is a " + r.unit + "; hover for its name and figures. Roofs: peak FLOP/s of "
                                  "each dtype present, the main-memory bandwidth slope (dashed: the ridge) and a slope per "
                                  "nearer memory level with its ridge. Points sit at the intensity of their minimum "
                                  "(main-memory) traffic.");
  page += "<h2>Time breakdown</h2>\n" + figure(breakdown_svg(r), "Compute, memory stall, communication, overhead and idle, summed over the run.");
  page += "<h2>Timeline</h2>\n" + figure(timeline_svg(r), "One row per simulated device; steps one after another.");
  page += "<h2>Power</h2>\n" +
          figure(power_svg(r), "The device's power over the run (records merged into equal time buckets), the power limit "
                               "dashed, and the SM clock the governor set (right-hand scale).");
  page += "<h2>" + escape(r.unit) + "s</h2>\n<p class=\"note\">Click a column to sort.</p>\n" + kernel_table(r);
  return html::page(title, page);
}

std::string svg_report(const RunResult& r) {
  return svg::stack({roofline_svg(r), breakdown_svg(r), timeline_svg(r), power_svg(r)});
}

}  // namespace hwsim
