#pragma once
// A small SVG writer (no plotting stack): shapes and text into one <svg> element, with the
// escaping done here; and the axes of a chart (linear or log10), their ticks and labels. Charts
// (roofline_svg, breakdown_svg, timeline_svg, sweep_svg) only place what the result structs hold.
#include <string>
#include <vector>

namespace hwsim::svg {

// Text safe inside an element or an attribute.
std::string escape(const std::string& text);

// Categorical colours in a fixed order (colour i of a chart's i-th series), readable on white.
const std::string& colour(std::size_t i);
// The colour of a named category, the same on every chart of every page: the breakdown's parts
// (compute, memory, communication, overhead, idle), op classes (gemm, attention, norm, ...),
// collectives and the series of the power and serving charts each have a fixed one; any other name
// one of the palette's, chosen from the name alone.
std::string category_colour(const std::string& name);

class Canvas {
 public:
  Canvas(double width, double height);
  // `tip`: a <title> shown on hover ("" = none). `style` is an extra attribute text.
  void line(double x1, double y1, double x2, double y2, const std::string& stroke, double width = 1,
            const std::string& dash = "");
  void rect(double x, double y, double w, double h, const std::string& fill, const std::string& tip = "");
  void circle(double x, double y, double r, const std::string& fill, const std::string& tip = "");
  void polyline(const std::vector<std::pair<double, double>>& points, const std::string& stroke, double width = 1.5);
  // anchor: start | middle | end
  void text(double x, double y, const std::string& text, const std::string& anchor = "start", double size = 11,
            double rotate = 0, const std::string& fill = "#222");
  std::string str() const;  // the whole <svg> element
  double width() const { return width_; }
  double height() const { return height_; }

 private:
  double width_, height_;
  std::string body_;
};

// A numeric axis mapped onto [pixel_from, pixel_to].
class Axis {
 public:
  Axis(double lo, double hi, double pixel_from, double pixel_to, bool log);
  double map(double v) const;
  std::vector<double> ticks() const;  // powers of ten (log) or 1-2-5 steps (linear)
  bool log() const { return log_; }
  double lo() const { return lo_; }
  double hi() const { return hi_; }

 private:
  double lo_, hi_, from_, to_;
  bool log_;
};

// "1.2k", "3.4T", "0.012": a tick label (no milli prefix: a bare "m" reads as metres or minutes).
std::string short_number(double v);
// Seconds as a reader writes them: "12.5 ms", "3 µs", "1.2 s".
std::string duration(double seconds);

// The unit of a time axis spanning [0, max_seconds]: seconds per unit and its name (s, ms, µs, ns).
struct TimeUnit {
  double seconds = 1;
  std::string name = "s";
};
TimeUnit time_unit(double max_seconds);

// The frame of a chart: its plot area, axes with ticks and grid, the title and axis labels.
struct Frame {
  double left = 70, right = 20, top = 30, bottom = 45;
};
// `x_unit`: a time axis's unit (its ticks written in it, "(ms)" after the label; on a log axis each
// tick as a duration); null: numbers.
void draw_axes(Canvas& c, const Frame& f, const Axis& x, const Axis& y, const std::string& title,
               const std::string& x_label, const std::string& y_label, const TimeUnit* x_unit = nullptr);
// A legend of names, top left inside the plot area, each in its category_colour, or in
// `colours[i]` (the colours the lines were drawn in).
void draw_legend(Canvas& c, const Frame& f, const std::vector<std::string>& names,
                 const std::vector<std::string>& colours = {});

// One standalone SVG document (with the XML prolog) of `charts` (each an <svg> element written by
// Canvas::str) stacked top to bottom, 10 px apart: what --svg FILE writes.
std::string stack(const std::vector<std::string>& charts);

}  // namespace hwsim::svg
