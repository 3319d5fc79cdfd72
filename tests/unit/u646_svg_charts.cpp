// The SVG charts: well-formed XML, one point per placeable record, one roof per dtype with its
// ridge (peak / bandwidth), a bar per record on the timeline, one line per sweep series.
#include <doctest/doctest.h>

#include <memory>

#include "tests/fixtures/xml_check.h"
#include "viz/svg/charts.h"
#include "viz/svg/svg.h"

using namespace hwsim;

namespace {
WorkRecord record(const std::string& name, const std::string& dtype, double flops, double bytes, double seconds,
                  double start) {
  static auto schema = std::make_shared<RecordSchema>(RecordSchema{{"hbm"}, {}});
  WorkRecord k;
  k.name = name, k.op_class = "gemm", k.dtype = dtype, k.schema = schema;
  k.flops = flops, k.min_bytes = bytes, k.traffic.push_back(bytes);
  k.start = start, k.end = start + seconds, k.seconds = seconds;
  k.peak_flop_rate = dtype == "bf16" ? 1e15 : 6e13;
  k.peak_memory_bandwidth = 3e12;
  k.arithmetic_intensity = flops / bytes, k.achieved_flop_rate = flops / seconds;
  return k;
}

RunResult two_records() {
  RunResult r;
  r.unit = "kernel", r.device_kind = "gpu", r.level = "tile", r.memory_levels = {"hbm"};
  r.peak_memory_bandwidth = 3e12;
  StepResult s;
  s.label = "step";
  s.records = {record("a", "bf16", 1e12, 1e9, 2e-3, 0), record("b", "fp32", 1e9, 1e9, 1e-3, 2e-3)};
  s.seconds = 3e-3;
  r.steps = {s};
  r.seconds = 3e-3;
  r.breakdown.compute = 2e-3, r.breakdown.memory = 1e-3;
  return r;
}
}  // namespace

TEST_CASE("svg: the roofline is well-formed, with a point per record and a roof per dtype") {
  std::string svg = roofline_svg(two_records());
  auto check = test::check_xml(svg);
  CHECK(check.error == "");
  CHECK(check.counts["circle"] == 2);
  CHECK(check.counts["polyline"] == 2);  // bf16 and fp32 roofs
  CHECK(svg.find("bf16 peak 1PFLOP/s, ridge 333") != std::string::npos);   // 1e15 / 3e12
  CHECK(svg.find("fp32 peak 60TFLOP/s, ridge 20") != std::string::npos);   // 6e13 / 3e12
  CHECK(svg.find("a (gemm, bf16): 1e+03 FLOP/B, 500TFLOP/s") != std::string::npos);  // 1e12 FLOP / 2 ms
}

TEST_CASE("svg: breakdown and timeline are well-formed, the timeline merges only records that meet") {
  RunResult r = two_records();
  auto breakdown = test::check_xml(breakdown_svg(r));
  CHECK(breakdown.error == "");
  CHECK(breakdown.counts["rect"] == 1 + 5);  // background + five activities
  std::string timeline = timeline_svg(r);
  auto t = test::check_xml(timeline);
  CHECK(t.error == "");
  CHECK(timeline.find("Timeline: 2 kernels") != std::string::npos);
  // a and b are gemms back to back: one bar that says it holds both.
  CHECK(t.counts["rect"] == 1 + 1 + 1);  // background, one bar, one legend swatch (one class)
  CHECK(timeline.find("2 gemm kernels from a") != std::string::npos);
  // A gap wider than half a pixel, or another class, starts a bar of its own.
  r.steps[0].records[1].start = 2.5e-3;
  r.steps[0].records.push_back(r.steps[0].records[1]);
  r.steps[0].records[2].op_class = "norm";
  auto apart = test::check_xml(timeline_svg(r));
  CHECK(apart.counts["rect"] == 1 + 3 + 2);  // background, three bars, two swatches
}

TEST_CASE("svg: sweep curves, one line per series, text escaped") {
  std::vector<SweepSeries> series = {{"batch=1", {{1e12, 10}, {2e12, 20}}}, {"batch=<8>", {{1e12, 80}, {2e12, 150}}}};
  std::string svg = sweep_svg("tokens/s & bandwidth", "memory.hbm.bandwidth", "tokens_per_second", series, false);
  auto check = test::check_xml(svg);
  CHECK(check.error == "");
  CHECK(check.counts["polyline"] == 2);
  CHECK(check.counts["circle"] == 4);
  CHECK(svg.find("batch=&lt;8&gt;") != std::string::npos);
  CHECK(test::check_xml("<svg><g></svg>").error != "");  // the checker can fail
}
