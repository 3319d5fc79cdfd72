#include "viz/svg/svg.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <regex>

namespace hwsim::svg {

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

const std::string& colour(std::size_t i) {
  // Tableau 10: distinct, colour-blind-friendlier than a rainbow.
  static const std::vector<std::string> palette = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                                   "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  return palette[i % palette.size()];
}

std::string category_colour(const std::string& name) {
  static const std::vector<std::pair<std::string, std::string>> fixed = {
      // where the time went
      {"compute", "#4e79a7"}, {"memory", "#f28e2b"}, {"communication", "#e15759"}, {"overhead", "#76b7b2"},
      {"idle", "#bab0ac"},
      // op classes
      {"gemm", "#4e79a7"}, {"attention", "#59a14f"}, {"norm", "#edc948"}, {"elementwise", "#f28e2b"},
      {"embedding", "#9c755f"}, {"launch_gaps", "#76b7b2"}, {"conv", "#4e79a7"}, {"dwconv", "#59a14f"},
      {"pool", "#edc948"}, {"fc", "#b07aa1"}, {"softmax", "#ff9da7"}, {"driver", "#76b7b2"},
      // collectives (the links' work: reds)
      {"all_reduce", "#e15759"}, {"all_gather", "#c43c3f"}, {"reduce_scatter", "#ff9da7"}, {"all_to_all", "#a0262a"},
      {"broadcast", "#d37295"}, {"send_recv", "#b07aa1"}, {"collective", "#e15759"},
      // series
      {"power", "#4e79a7"}, {"SM clock", "#f28e2b"}, {"limit", "#b22222"}, {"busbw", "#4e79a7"}, {"algbw", "#f28e2b"},
      {"TTFT", "#4e79a7"}, {"TPOT", "#f28e2b"}, {"ITL", "#59a14f"}, {"E2E", "#b07aa1"},
      {"output tokens/s", "#4e79a7"}, {"prompt tokens/s", "#edc948"}, {"running", "#59a14f"}, {"waiting", "#e15759"},
      {"KV use", "#9c755f"}};
  for (const auto& [n, c] : fixed)
    if (n == name) return c;
  std::size_t h = 0;
  for (char ch : name) h = h * 31 + static_cast<unsigned char>(ch);  // deterministic across runs
  return colour(h);
}

std::string duration(double s) {
  double a = std::fabs(s);
  TimeUnit u = a >= 1 ? TimeUnit{1, "s"} : a >= 1e-3 ? TimeUnit{1e-3, "ms"} : a >= 1e-6 ? TimeUnit{1e-6, "µs"} : TimeUnit{1e-9, "ns"};
  return fmt::format("{:.3g} {}", s / u.seconds, u.name);
}

TimeUnit time_unit(double max_seconds) {
  if (max_seconds >= 2) return {1, "s"};
  if (max_seconds >= 2e-3) return {1e-3, "ms"};
  if (max_seconds >= 2e-6) return {1e-6, "µs"};
  return {1e-9, "ns"};
}

namespace {
std::string num(double v) { return fmt::format("{:.2f}", v); }
std::string title(const std::string& tip) { return tip.empty() ? "" : "<title>" + escape(tip) + "</title>"; }
}  // namespace

Canvas::Canvas(double width, double height) : width_(width), height_(height) {}

void Canvas::line(double x1, double y1, double x2, double y2, const std::string& stroke, double width,
                  const std::string& dash) {
  body_ += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n", num(x1),
                       num(y1), num(x2), num(y2), stroke, width, dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\"");
}

void Canvas::rect(double x, double y, double w, double h, const std::string& fill, const std::string& tip) {
  body_ += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\">{}</rect>\n", num(x), num(y),
                       num(std::max(w, 0.0)), num(std::max(h, 0.0)), fill, title(tip));
}

void Canvas::circle(double x, double y, double r, const std::string& fill, const std::string& tip) {
  body_ += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" fill-opacity=\"0.75\">{}</circle>\n", num(x),
                       num(y), r, fill, title(tip));
}

void Canvas::polyline(const std::vector<std::pair<double, double>>& points, const std::string& stroke, double width) {
  std::string p;
  for (const auto& [x, y] : points) p += num(x) + "," + num(y) + " ";
  body_ += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"/>\n", p, stroke, width);
}

void Canvas::text(double x, double y, const std::string& t, const std::string& anchor, double size, double rotate,
                  const std::string& fill) {
  std::string transform = rotate == 0 ? "" : fmt::format(" transform=\"rotate({} {} {})\"", rotate, num(x), num(y));
  body_ += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{}\" fill=\"{}\"{}>{}</text>\n", num(x),
                       num(y), size, anchor, fill, transform, escape(t));
}

std::string Canvas::str() const {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\">\n<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n{2}</svg>\n",
      width_, height_, body_);
}

Axis::Axis(double lo, double hi, double pixel_from, double pixel_to, bool log)
    : lo_(lo), hi_(hi), from_(pixel_from), to_(pixel_to), log_(log) {
  if (log_) {
    lo_ = std::pow(10, std::floor(std::log10(std::max(lo_, 1e-300))));
    hi_ = std::pow(10, std::ceil(std::log10(std::max(hi_, lo_ * 10))));
  } else if (hi_ <= lo_) {
    hi_ = lo_ + (lo_ == 0 ? 1 : std::fabs(lo_));
  }
}

double Axis::map(double v) const {
  double t = log_ ? (std::log10(v) - std::log10(lo_)) / (std::log10(hi_) - std::log10(lo_)) : (v - lo_) / (hi_ - lo_);
  return from_ + t * (to_ - from_);
}

std::vector<double> Axis::ticks() const {
  std::vector<double> out;
  if (log_) {
    for (double v = lo_; v <= hi_ * 1.0001; v *= 10) out.push_back(v);
    return out;
  }
  double raw = (hi_ - lo_) / 6, step = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * step >= raw) { step *= m; break; }
  for (double v = std::ceil(lo_ / step) * step; v <= hi_ + step * 1e-9; v += step) out.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
  return out;
}

std::string short_number(double v) {
  static const std::pair<double, const char*> scale[] = {{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"},
                                                         {1, ""}};
  if (v == 0) return "0";
  for (const auto& [f, s] : scale)
    if (std::fabs(v) >= f * 0.9995) return fmt::format("{:.3g}{}", v / f, s);
  return fmt::format("{:.3g}", v);
}

void draw_axes(Canvas& c, const Frame& f, const Axis& x, const Axis& y, const std::string& title,
               const std::string& x_label, const std::string& y_label, const TimeUnit* x_unit) {
  double x0 = f.left, x1 = c.width() - f.right, y0 = c.height() - f.bottom, y1 = f.top;
  for (double t : x.ticks()) {
    double px = x.map(t);
    c.line(px, y0, px, y1, "#e6e6e6");
    std::string label = !x_unit ? short_number(t) : x.log() ? duration(t) : fmt::format("{:g}", t / x_unit->seconds);
    c.text(px, y0 + 14, label, "middle", 10);
  }
  for (double t : y.ticks()) {
    double py = y.map(t);
    c.line(x0, py, x1, py, "#e6e6e6");
    c.text(x0 - 5, py + 3, short_number(t), "end", 10);
  }
  c.line(x0, y0, x1, y0, "#444");
  c.line(x0, y0, x0, y1, "#444");
  c.text(c.width() / 2, 18, title, "middle", 13);
  if (!x_label.empty())
    c.text((x0 + x1) / 2, c.height() - 8, x_unit && !x.log() ? x_label + " (" + x_unit->name + ")" : x_label, "middle", 11);
  c.text(14, (y0 + y1) / 2, y_label, "middle", 11, -90);
}

void draw_legend(Canvas& c, const Frame& f, const std::vector<std::string>& names,
                 const std::vector<std::string>& colours) {
  double x = f.left + 10, y = f.top + 12;  // top left: roof labels sit at the right
  for (std::size_t i = 0; i < names.size(); ++i) {
    c.rect(x, y + 14 * double(i) - 8, 9, 9, i < colours.size() ? colours[i] : category_colour(names[i]));
    c.text(x + 13, y + 14 * double(i), names[i], "start", 10);
  }
}

std::string stack(const std::vector<std::string>& charts) {
  static const std::regex size(R"re(<svg [^>]*width="([0-9.]+)" height="([0-9.]+)")re");
  double y = 0, width = 0;
  std::string body;
  for (const auto& p : charts) {
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

}  // namespace hwsim::svg
