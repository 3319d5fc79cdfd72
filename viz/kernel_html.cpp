#include "viz/kernel_html.h"

#include <fmt/format.h>

#include "viz/warp/kernel_report.h"
#include "sim/units.h"
#include "viz/html_page.h"
#include "viz/svg/kernel_charts.h"
#include "viz/svg/svg.h"

namespace hwsim {

namespace {
using html::number_cell;
using html::row;
using html::text_cell;

std::string summary_table(const Config& config, const warp::KernelRun& r, const warp::KernelFigures& f) {
  const auto& s = r.stats;
  const auto& o = r.occupancy;
  std::string t = "<table class=\"summary\">\n";
  t += row("chip", config.text("name") + ", warp model") + row("kernel", r.program.name + " (" + r.program.file + ")");
  std::string launch = fmt::format("grid {} × block {}", r.grid, r.block);
  if (s.sms_simulated < r.sm_count && s.ctas_simulated < r.grid)
    launch += fmt::format(" (simulated {} SMs, {} blocks)", s.sms_simulated, s.ctas_simulated);
  t += row("launch", launch);
  t += row("time", fmt::format("{} cycles = {:.3f} µs (+ {:.2f} µs launch) at {:.2f} GHz", s.cycles,
                               double(s.cycles) / r.clock_hz * 1e6, r.launch_overhead * 1e6, r.clock_hz / 1e9));
  t += row("instructions", fmt::format("{} warp, {} thread; IPC {:.2f} per SM", s.warp_instructions,
                                       s.thread_instructions, f.ipc));
  t += row("SIMD efficiency", fmt::format("{:.1f} % ({:.1f} of 32 lanes active, {:.1f} not predicated off)",
                                          100 * f.simd_efficiency, 32 * f.simd_efficiency, 32 * f.pred_on_efficiency));
  t += row("occupancy", fmt::format("theoretical {:.0f} % ({} blocks × {} warps per SM, bound by {}), achieved {:.0f} %",
                                    100 * o.theoretical, o.ctas_per_sm, o.warps_per_cta, o.limiter,
                                    100 * f.achieved_occupancy));
  const warp::KernelMetrics& m = f.metrics;
  const char* star = m.sampled ? "*" : "";
  if (m.sampled)
    t += row("sampled", fmt::format("figures marked * are the whole kernel's: the sampled counts × {:.3g}", m.scale));
  if (r.memory_stats.requests) {
    t += row("global memory", fmt::format("{} requests{}, {:.1f} sectors/request", r.memory_stats.requests,
                                          m.sampled ? " (sampled)" : "", f.sectors_per_request));
    for (const auto& level : m.traffic)
      t += row(level.label, fmt::format("{}{} at {} = {:.1f} % of {} peak", format_quantity(level.bytes, Dimension::bytes),
                                        star, format_quantity(level.bandwidth, Dimension::bandwidth), level.percent_of_peak,
                                        format_quantity(level.peak, Dimension::bandwidth)));
    t += row("L2 hit rate", fmt::format("{:.1f} % as Nsight Compute counts it (loads {:.1f} %; stores count as hits)",
                                        100 * m.l2_hit_rate, 100 * m.l2_load_hit_rate));
  }
  if (m.flops > 0)
    t += row("roofline", fmt::format("{:.3g} FLOP/B vs ridge {:.3g} FLOP/B: {}-bound, {} = {:.1f} % of the roof {}",
                                     m.arithmetic_intensity, m.ridge_point, m.bound,
                                     format_quantity(m.flop_rate, Dimension::flop_rate), m.percent_of_roof,
                                     format_quantity(m.roof, Dimension::flop_rate)));
  t += row("energy", fmt::format("{}{} (average {})", format_quantity(m.energy, Dimension::energy), star,
                                 format_quantity(m.average_power, Dimension::power)));
  t += row("stalls", warp::dominant_stall_text(r));
  return t + "</table>\n";
}

std::string instruction_table(const warp::KernelFigures& f) {
  std::string t = "<table class=\"kernels\" id=\"instructions\">\n<thead><tr><th>pc</th><th>line</th><th>instruction</th>"
                  "<th>issued</th><th>thread instructions</th><th>bank ways</th><th>sectors/request</th>"
                  "<th>stall cycles</th><th>top stall</th></tr></thead>\n<tbody>\n";
  for (const auto& in : f.instructions) {
    t += "<tr>" + number_cell(in.pc, std::to_string(in.pc)) + number_cell(in.line, std::to_string(in.line)) +
         text_cell(in.text) + number_cell(double(in.issued), std::to_string(in.issued)) +
         number_cell(double(in.thread_instructions), std::to_string(in.thread_instructions)) +
         number_cell(in.ways, in.ways > 0 ? fmt::format("{:.3g}", in.ways) : "") +
         number_cell(in.sectors_per_request, in.sectors_per_request > 0 ? fmt::format("{:.3g}", in.sectors_per_request) : "") +
         number_cell(double(in.stall_cycles), std::to_string(in.stall_cycles)) + text_cell(in.top_stall) + "</tr>\n";
  }
  return t + "</tbody></table>\n";
}
}  // namespace

std::string kernel_html_report(const Config& config, const warp::KernelRun& r, const warp::KernelFigures& f) {
  std::string title = fmt::format("hwsim: kernel {} on {}", r.program.name, config.text("name"));
  std::string body = summary_table(config, r, f);
  body += "<h2>Shared-memory bank map</h2>\n" +
          html::figure(bank_map_svg(f), "One row per shared-memory instruction, one column per bank: the distinct words "
                                        "the bank holds in a request that uses it, on average; a bank holding n words "
                                        "serialises the request n ways (one wavefront each). Broadcasts of one word count "
                                        "once. Last row: the single warp request with the most ways.");
  body += "<h2>Warp states</h2>\n" +
          html::figure(stall_svg(f), "Warp cycles by state, named as Nsight Compute names its stall reasons "
                                     "(selected = issuing); hover a bar for what the state means.");
  body += "<h2>Instructions</h2>\n<p class=\"note\">Click a column to sort.</p>\n" + instruction_table(f);
  return html::page(title, body);
}

std::string kernel_svg_report(const warp::KernelFigures& f) { return svg::stack({bank_map_svg(f), stall_svg(f)}); }

}  // namespace hwsim
