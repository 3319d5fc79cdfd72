#include "viz/html_report.h"

#include <fmt/format.h>

#include "viz/html_page.h"
#include "viz/html_summary.h"
#include "viz/svg/charts.h"
#include "viz/svg/svg.h"

namespace hwsim {

namespace {
using html::figure;
using html::number_cell;
using html::row;
using svg::escape;
using svg::short_number;

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
           number_cell(k.seconds, svg::duration(k.seconds)) + number_cell(k.flops, short_number(k.flops)) +
           number_cell(k.min_bytes, short_number(k.min_bytes)) +
           number_cell(k.arithmetic_intensity, fmt::format("{:.3g}", k.arithmetic_intensity)) +
           number_cell(k.achieved_flop_rate, short_number(k.achieved_flop_rate)) +
           number_cell(ratio, ratio > 0 ? fmt::format("{:.2f}", ratio) : "-") + "<td class=\"t\">" + escape(k.bound) +
           "</td><td class=\"t\">" +
           escape(k.config) + "</td></tr>\n";
      ++n;
    }
  }
  t += "</tbody></table>\n";
  if (total > n) t += fmt::format("<p class=\"note\">The first {} of {} records (run order).</p>\n", n, total);
  return t;
}

// Captions say what each chart draws for this run.
std::string power_caption(const RunResult& r) {
  std::string c = r.devices > 1 ? "One device's power over the run, averaged over the devices used" : "The device's power over the run";
  c += " (records merged into equal time buckets; idle power where no record ran)";
  if (r.tdp > 0) c += ", against the power limit (dashed) and the idle power (dotted)";
  if (r.power.average_clock > 0) c += "; below it, the SM clock the governor set";
  return c + ".";
}

std::string device_page(const Config& config, const Workload& workload, const RunResult& r) {
  std::string page = device_summary(config, workload, r);
  page += "<h2>Roofline</h2>\n" +
          figure(roofline_svg(r), "Each point is a " + r.unit + "; hover for its name and figures. Roofs: peak FLOP/s of "
                                  "each dtype present, the main-memory bandwidth slope (dashed: the ridge) and a slope per "
                                  "nearer memory level with its ridge. Points sit at the intensity of their minimum "
                                  "(main-memory) traffic.");
  page += "<h2>Time breakdown</h2>\n" +
          figure(breakdown_svg(r), r.devices > 1 ? "Compute, memory stall, communication, overhead and idle, one device's "
                                                   "average over the devices used (a pipeline's bubble is idle)."
                                                 : "Compute, memory stall, communication, overhead and idle over the run.");
  page += "<h2>Timeline</h2>\n" +
          figure(timeline_svg(r), r.system.present ? "One row per pipeline stage's device; its tensor-parallel ranks do the "
                                                     "same. Gaps are the pipeline bubble and waits on other stages."
                                                   : "The device's " + r.unit + "s in time, steps one after another.");
  page += "<h2>Power</h2>\n" + figure(power_svg(r), power_caption(r));
  page += "<h2>" + escape(r.unit) + "s</h2>\n<p class=\"note\">Click a column to sort.</p>\n" + kernel_table(r);
  return page;
}

std::string serving_page(const Config& config, const Workload& workload, const RunResult& r) {
  std::string page = serving_summary(config, workload, r);
  page += "<h2>Latency</h2>\n" +
          figure(latency_svg(r.serving), "Time to first token (arrival to first token), time per output token (per "
                                         "request), inter-token latency (every gap between a request's streamed "
                                         "tokens) and end-to-end latency, as benchmark_serving defines them; dots mark "
                                         "the median and p99.");
  page += "<h2>Over time</h2>\n" +
          figure(serving_time_svg(r.serving), "Output tokens per second over the run (above); sequences running in a "
                                              "step and waiting for one, and the share of the KV cache in use (below, "
                                              "right-hand scale).");
  page += "<h2>Power</h2>\n" + figure(power_svg(r), power_caption(r));
  page += "<h2>Engine passes</h2>\n" +
          figure(breakdown_svg(r), "Where the devices' time went over the run: the passes' compute and memory, and idle "
                                   "between them.");
  page += "<h2>" + escape(r.unit) + "s of each distinct pass</h2>\n<p class=\"note\">Each pass shape once, as first "
          "simulated; click a column to sort.</p>\n" + kernel_table(r);
  return page;
}

std::string collective_page(const Config& config, const Workload& workload, const RunResult& r) {
  std::string page = collective_summary(config, workload, r);
  page += "<h2>Bus bandwidth</h2>\n" +
          figure(collective_svg(r.system), "Bus bandwidth (algorithm bandwidth × the collective's factor, as nccl-tests "
                                           "reports it) and algorithm bandwidth (bytes ÷ time) for each message size; "
                                           "hover for the time and the algorithm chosen.");
  page += "<h2>Timeline</h2>\n" + figure(timeline_svg(r), "Each size's collective, one after another.");
  page += "<h2>Power</h2>\n" + figure(power_svg(r), power_caption(r) + " During a collective the devices draw their "
                                                                        "idle power; the links' energy is in the summary.");
  page += "<h2>Collectives</h2>\n<p class=\"note\">Click a column to sort.</p>\n" + kernel_table(r);
  return page;
}

}  // namespace

std::string html_report(const Config& config, const Workload& workload, const RunResult& r) {
  std::string title = fmt::format("hwsim: {} on {}", workload.spec, config.text("name"));
  if (r.serving.present) return html::page(title, serving_page(config, workload, r));
  if (r.system.collectives_only()) return html::page(title, collective_page(config, workload, r));
  return html::page(title, device_page(config, workload, r));
}

std::string svg_report(const RunResult& r) {
  if (r.serving.present) return svg::stack({latency_svg(r.serving), serving_time_svg(r.serving), power_svg(r)});
  if (r.system.collectives_only()) return svg::stack({collective_svg(r.system), timeline_svg(r), power_svg(r)});
  return svg::stack({roofline_svg(r), breakdown_svg(r), timeline_svg(r), power_svg(r)});
}

}  // namespace hwsim
