// The roofline draws a slope per memory level with a peak bandwidth (RunResult::
// memory_level_bandwidth): the main memory's as before, and each nearer level's (l2) as a line
// parallel to it, meeting the compute roof at its own ridge (peak / bandwidth), labelled.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <regex>
#include <set>

#include "tests/fixtures/xml_check.h"
#include "viz/svg/charts.h"

using namespace hwsim;

namespace {
RunResult two_levels(std::vector<double> level_bandwidth) {
  static auto schema = std::make_shared<RecordSchema>(RecordSchema{{"l2", "hbm"}, {}});
  WorkRecord k;
  k.name = "g", k.op_class = "gemm", k.dtype = "bf16", k.schema = schema;
  k.flops = 2e10, k.min_bytes = 1e9, k.traffic = {2e9, 1e9};  // 20 FLOP/B: the x axis spans 10..1000
  k.seconds = 4e-4, k.end = 4e-4;
  k.peak_flop_rate = 1e15, k.peak_memory_bandwidth = 2.5e12;
  k.arithmetic_intensity = 20, k.achieved_flop_rate = 5e13;
  RunResult r;
  r.unit = "kernel", r.memory_levels = {"l2", "hbm"}, r.memory_level_bandwidth = std::move(level_bandwidth);
  r.peak_memory_bandwidth = 2.5e12;
  r.steps = {StepResult{"step", {k}, 4e-4}};
  return r;
}

struct Line { double x1, y1, x2, y2; std::string stroke; };
std::vector<Line> lines(const std::string& svg) {
  static const std::regex re(R"re(<line x1="([-0-9.]+)" y1="([-0-9.]+)" x2="([-0-9.]+)" y2="([-0-9.]+)" stroke="([^"]+)")re");
  std::vector<Line> out;
  for (std::sregex_iterator it(svg.begin(), svg.end(), re), end; it != end; ++it)
    out.push_back({std::stod((*it)[1]), std::stod((*it)[2]), std::stod((*it)[3]), std::stod((*it)[4]), (*it)[5]});
  return out;
}
}  // namespace

TEST_CASE("roofline: an l2 roof beside the hbm roof, at its ridge, parallel to it") {
  std::string svg = roofline_svg(two_levels({1e13, 2.5e12}));
  auto check = test::check_xml(svg);
  CHECK(check.error == "");
  CHECK(svg.find("bf16 peak 1PFLOP/s, ridge 400") != std::string::npos);       // 1e15 / 2.5e12
  CHECK(svg.find("l2 10TB/s, ridge 100 at bf16") != std::string::npos);        // 1e15 / 1e13
  CHECK(svg.find(">hbm 2.5TB/s<") != std::string::npos);                      // the main slope, labelled
  CHECK(svg.find("intensity of their minimum traffic") != std::string::npos);  // what places the points

  // geometry: pixels per decade from the x grid (vertical lines at each power of ten)
  std::set<double> grid_x;
  const Line* l2 = nullptr;
  auto all = lines(svg);
  for (const auto& l : all) {
    if (l.stroke == "#e6e6e6" && l.x1 == l.x2) grid_x.insert(l.x1);
    if (l.stroke == "#8c8c8c") l2 = &l;
  }
  REQUIRE(grid_x.size() >= 3);
  REQUIRE(l2 != nullptr);
  double decade = *std::next(grid_x.begin()) - *grid_x.begin();
  // the hbm roof: polyline start → ridge → right end
  std::smatch m;
  REQUIRE(std::regex_search(svg, m, std::regex(R"re(<polyline points="([-0-9.]+),([-0-9.]+) ([-0-9.]+),([-0-9.]+) )re")));
  double hx1 = std::stod(m[1]), hy1 = std::stod(m[2]), hx2 = std::stod(m[3]), hy2 = std::stod(m[4]);
  CHECK(l2->y2 == doctest::Approx(hy2).epsilon(1e-3));                                  // both meet the bf16 roof
  CHECK(hx2 - l2->x2 == doctest::Approx(decade * std::log10(4.0)).epsilon(0.01));       // ridges 400 vs 100
  CHECK((l2->y2 - l2->y1) / (l2->x2 - l2->x1) == doctest::Approx((hy2 - hy1) / (hx2 - hx1)).epsilon(0.01));  // parallel
}

TEST_CASE("roofline: a level without a bandwidth, or main memory alone, adds no roof") {
  std::string svg = roofline_svg(two_levels({0, 2.5e12}));
  CHECK(svg.find("#8c8c8c") == std::string::npos);
  CHECK(svg.find("l2 ") == std::string::npos);
  svg = roofline_svg(two_levels({}));
  CHECK(test::check_xml(svg).error == "");
  CHECK(svg.find("#8c8c8c") == std::string::npos);
}

TEST_CASE("roofline: the records' reference level is the main slope, the others are drawn beside it") {
  // a microcontroller measures its records against the SRAM arena (10 TB/s here), flash is slower
  RunResult r = two_levels({2.5e12, 1e11});
  r.memory_levels = {"sram", "flash"};
  std::string svg = roofline_svg(r);
  CHECK(test::check_xml(svg).error == "");
  CHECK(svg.find("(sram memory roof 2.5TB/s)") != std::string::npos);
  CHECK(svg.find(">sram 2.5TB/s<") != std::string::npos);
  CHECK(svg.find("flash 100GB/s, ridge 1e+04 at bf16") != std::string::npos);  // 1e15 / 1e11, right of the plot
}
