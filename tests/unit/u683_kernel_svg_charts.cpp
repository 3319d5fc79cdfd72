// The kernel pictures print what KernelFigures holds: the bank map (a cell per bank and shared
// instruction, the words per request written in it, the degree per row, the worst warp) and the
// warp-state bars (one per state, longest first, shares as written). Well-formed XML.
#include <doctest/doctest.h>

#include "tests/fixtures/xml_check.h"
#include "viz/svg/kernel_charts.h"

using namespace hwsim;
using namespace hwsim::warp;

namespace {
KernelFigures hand_made() {
  KernelFigures f;
  BankRow conflicted;
  conflicted.line = 40, conflicted.text = "ld.shared.f32 v0, [a0]";
  conflicted.requests = 4, conflicted.wavefronts = 128, conflicted.ways = 32, conflicted.worst_ways = 32;
  conflicted.words.assign(32, 0), conflicted.words[0] = 128, conflicted.banks_hit = 1;
  conflicted.used_by.assign(32, 0), conflicted.used_by[0] = 4;
  conflicted.ways_per_bank.assign(32, 0), conflicted.ways_per_bank[0] = 32;
  conflicted.worst_warp.assign(32, 0), conflicted.worst_warp[0] = 32;
  BankRow clean;
  clean.line = 20, clean.text = "st.shared.f32 [addr], half";
  clean.requests = 256, clean.wavefronts = 256, clean.ways = 1, clean.worst_ways = 1;
  clean.words.assign(32, 256), clean.used_by.assign(32, 256), clean.ways_per_bank.assign(32, 1);
  clean.banks_hit = 32, clean.worst_warp.assign(32, 1);
  f.shared = {clean, conflicted};
  f.dominant = Stall::short_scoreboard;
  f.warp_cycles = 1000;
  f.stalls = {{Stall::selected, "selected", "issued", 100, 0.1},
              {Stall::short_scoreboard, "short_scoreboard", "<shared> & friends", 700, 0.7},
              {Stall::mio_throttle, "mio_throttle", "pipe", 200, 0.2}};
  return f;
}
}  // namespace

TEST_CASE("kernel svg: the bank map has a cell per bank and row, the degree and the worst warp") {
  std::string svg = bank_map_svg(hand_made());
  auto check = test::check_xml(svg);
  CHECK(check.error == "");
  CHECK(check.counts["rect"] == 1 + 3 * 32 + 6);  // background, two rows and the worst warp, the colour key (1..32)
  CHECK(svg.find("avg 32-way, worst 32, 1 bank<") != std::string::npos);
  CHECK(svg.find("avg 1-way, worst 1, 32 banks<") != std::string::npos);
  CHECK(svg.find("one warp (line 40, 32-way)") != std::string::npos);
  CHECK(svg.find("line 40 bank 0: used by 4 of 4 requests, 128 words (32 per request using it)") != std::string::npos);
  CHECK(svg.find("line 40 bank 1: used by 0 of 4 requests, 0 words") != std::string::npos);
  CHECK(svg.find(">32</text>") != std::string::npos);  // written in bank 0's cell
}

TEST_CASE("kernel svg: the warp states, longest first, the dominant highlighted, text escaped") {
  std::string svg = stall_svg(hand_made());
  auto check = test::check_xml(svg);
  CHECK(check.error == "");
  CHECK(check.counts["rect"] == 1 + 3);
  CHECK(svg.find("dominant stall short_scoreboard") != std::string::npos);
  CHECK(svg.find(">70.0 %<") != std::string::npos);
  CHECK(svg.find("&lt;shared&gt; &amp; friends") != std::string::npos);
  auto first = svg.find(">short_scoreboard<"), second = svg.find(">mio_throttle<"), third = svg.find(">selected<");
  CHECK(first < second);
  CHECK(second < third);
  CHECK(svg.find("fill=\"#e15759\"><title>short_scoreboard") != std::string::npos);
}

TEST_CASE("kernel svg: no shared access is said so") {
  KernelFigures f;
  std::string svg = bank_map_svg(f);
  CHECK(test::check_xml(svg).error == "");
  CHECK(svg.find("no shared-memory access ran") != std::string::npos);
}
