#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "viz/svg/kernel_charts.h"
#include "viz/svg/svg.h"

namespace hwsim {

namespace {
// The colour scale saturates at 32 ways: every lane of a warp on a distinct word of one bank.
constexpr double kFullScaleWays = 32;

// A cell's colour by the ways a bank serialises a request: light green at 1 (one wavefront),
// through orange, to dark red at kFullScaleWays (log2 scale); paler still below 1 (the bank is
// idle in some requests).
std::string heat(double ways) {
  if (ways < 1) return "#eef7ea";
  double t = std::min(1.0, std::log2(ways) / std::log2(kFullScaleWays));
  struct Rgb { double r, g, b; };
  const Rgb stops[] = {{199, 233, 192}, {253, 174, 97}, {178, 24, 43}};
  const Rgb& a = stops[t < 0.5 ? 0 : 1];
  const Rgb& b = stops[t < 0.5 ? 1 : 2];
  double u = t < 0.5 ? t * 2 : (t - 0.5) * 2;
  return fmt::format("#{:02x}{:02x}{:02x}", int(std::lround(a.r + (b.r - a.r) * u)),
                     int(std::lround(a.g + (b.g - a.g) * u)), int(std::lround(a.b + (b.b - a.b) * u)));
}

// "12", "1", "0.5": a per-request word count that fits a cell.
std::string cell_number(double v) { return v >= 9.95 ? fmt::format("{:.0f}", v) : fmt::format("{:.2g}", v); }

std::string shorten(const std::string& s, std::size_t n) { return s.size() <= n ? s : s.substr(0, n - 1) + "…"; }

struct Grid {
  double left = 240, cell = 16, row = 18, gap = 5;
};

// One row of cells: `ways[b]` the words bank b holds in a request that uses it (0: unused);
// `tip(b)` its hover text.
template <class Tip>
void cells(svg::Canvas& c, const Grid& g, double y, const std::vector<double>& ways, Tip tip) {
  for (std::size_t b = 0; b < ways.size(); ++b) {
    double x = g.left + g.cell * double(b), v = ways[b];
    c.rect(x, y, g.cell - 1, g.row, v > 0 ? heat(v) : "#f7f7f7", tip(b));
    if (v > 0 && g.cell >= 12)
      c.text(x + (g.cell - 1) / 2, y + g.row - 5, cell_number(v), "middle", 8,
             0, std::log2(std::max(v, 1.0)) / std::log2(kFullScaleWays) > 0.6 ? "white" : "#222");
  }
}

// The colour key under the map: 1, 2, 4, ... 32 ways.
void heat_key(svg::Canvas& c, const Grid& g, double y) {
  c.text(g.left - 8, y + 11, "colour key:", "end", 10);
  double x = g.left;
  for (double w = 1; w <= kFullScaleWays; w *= 2, x += 34) {
    c.rect(x, y, 30, 14, heat(w));
    c.text(x + 15, y + 11, cell_number(w), "middle", 9, 0, w >= 8 ? "white" : "#222");
  }
  c.text(x + 6, y + 11, "words in a bank per request using it = ways it serialises",
         "start", 10);
}
}  // namespace

std::string bank_map_svg(const warp::KernelFigures& f) {
  Grid g;
  g.cell = std::min(16.0, 640.0 / std::max(1, f.banks));
  std::size_t rows = std::min(f.shared.size(), kMaxBankRows);
  double width = g.left + g.cell * f.banks + 170, top = 50;
  svg::Canvas c(width, top + double(rows + 1) * (g.row + g.gap) + 70);
  c.text(c.width() / 2, 18, fmt::format("Shared-memory bank map: {} banks × {} B, ways each bank serialises a request",
                                        f.banks, f.bank_bytes), "middle", 13);
  if (f.shared.empty()) {
    c.text(c.width() / 2, 60, "no shared-memory access ran", "middle", 12);
    return c.str();
  }
  for (int b = 0; b < f.banks; ++b)
    if (g.cell >= 12 || b % 4 == 0) c.text(g.left + g.cell * (b + 0.5) - 0.5, top - 6, std::to_string(b), "middle", 8, 0, "#555");
  c.text(g.left - 8, top - 6, "bank", "end", 9, 0, "#555");
  const warp::BankRow* worst = &f.shared.front();
  for (std::size_t i = 0; i < rows; ++i) {
    const warp::BankRow& r = f.shared[i];
    if (r.worst_ways > worst->worst_ways) worst = &r;
    double y = top + double(i) * (g.row + g.gap);
    c.text(g.left - 8, y + g.row - 5, shorten(fmt::format("line {}: {}", r.line, r.text), 38), "end", 10);
    cells(c, g, y, r.ways_per_bank, [&](std::size_t b) {
      return fmt::format("line {} bank {}: used by {} of {} requests, {} words ({:.3g} per request using it)", r.line, b,
                         r.used_by[b], r.requests, r.words[b], r.ways_per_bank[b]);
    });
    c.text(g.left + g.cell * f.banks + 8, y + g.row - 5, fmt::format("avg {:.3g}-way, worst {}, {} bank{}", r.ways,
                                                                     r.worst_ways, r.banks_hit, r.banks_hit == 1 ? "" : "s"), "start", 10);
  }
  double y = top + double(rows) * (g.row + g.gap) + 10;  // set apart from the instruction rows
  c.text(g.left - 8, y + g.row - 5, fmt::format("one warp (line {}, {}-way)", worst->line, worst->worst_ways), "end", 10);
  std::vector<double> warp(worst->worst_warp.begin(), worst->worst_warp.end());
  cells(c, g, y, warp, [&](std::size_t b) {
    return fmt::format("the worst request of line {}: bank {} holds {} distinct words", worst->line, b, worst->worst_warp[b]);
  });
  heat_key(c, g, y + g.row + 12);
  if (f.shared.size() > rows)
    c.text(g.left, c.height() - 8, fmt::format("the first {} of {} shared-memory instructions drawn", rows, f.shared.size()), "start", 10);
  return c.str();
}

std::string stall_svg(const warp::KernelFigures& f) {
  std::vector<const warp::StallShare*> order;
  for (const auto& s : f.stalls) order.push_back(&s);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->cycles > b->cycles; });
  const double left = 160, right = 90, row = 20, top = 40;
  svg::Canvas c(760, top + row * double(std::max<std::size_t>(order.size(), 1)) + 20);
  c.text(c.width() / 2, 18, fmt::format("Warp states (Nsight Compute stall reasons): {} warp cycles, dominant stall {}",
                                        f.warp_cycles, warp::stall_name(f.dominant)), "middle", 13);
  double most = order.empty() ? 1 : order.front()->share, width = c.width() - left - right;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const warp::StallShare& s = *order[i];
    double y = top + row * double(i);
    std::string fill = s.stall == f.dominant ? "#e15759" : s.stall == warp::Stall::selected ? "#59a14f" : "#4e79a7";
    c.text(left - 8, y + 13, s.name, "end", 11);
    c.rect(left, y + 2, width * s.share / most, row - 5, fill,
           fmt::format("{}: {} cycles ({:.1f} %): {}", s.name, s.cycles, 100 * s.share, s.explanation));
    c.text(left + width * s.share / most + 5, y + 13, fmt::format("{:.1f} %", 100 * s.share), "start", 10);
  }
  return c.str();
}

}  // namespace hwsim
