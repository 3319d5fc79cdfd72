// Every shipped kernel program gives the same figures, bit for bit, as the stored ones
// (tests/data/warp_kernels_golden.json): cycles, instructions, every stall counter, per-instruction
// counts, memory statistics and a hash of every buffer's contents. A speed-up of the warp model must
// not move a single number. The stored file was written by the model before its speed-up (issue
// 12); a deliberate accuracy change regenerates it (HWSIM_WRITE_WARP_GOLDEN=1 build/tests/test_unit
// -tc='warp golden*') in a commit that says why.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>

#include "u4_warp_support.h"

using namespace hwsim::warp;
using nlohmann::json;

namespace {

struct GoldenCase {
  std::string name, kernel;
  std::int64_t grid, block;
  std::map<std::string, std::string> args;
  int sample_sms = 0;
  bool lrr = false;
  bool trace = false;
};

const std::vector<GoldenCase>& cases() {
  static const std::vector<GoldenCase> c = {
      {"vector_add", "vector_add", 4, 256, {}},
      {"vector_add_b128", "vector_add", 64, 128, {}},
      {"matmul_naive", "matmul_naive", 16, 256, {{"n", "64"}}},
      {"matmul_tiled", "matmul_tiled", 16, 256, {{"n", "64"}}, 0, false, true},
      {"matmul_tiled_lrr", "matmul_tiled", 16, 256, {{"n", "64"}}, 0, true},
      {"matmul_tiled8", "matmul_tiled8", 64, 64, {{"n", "64"}}},
      {"matmul_tiled32", "matmul_tiled32", 4, 1024, {{"n", "64"}}},
      {"matmul_regblock", "matmul_regblock", 128, 64, {{"n", "256"}, {"splitk", "2"}}},
      {"reduction_shuffle", "reduction_shuffle", 8, 256, {}},
      {"reduction_tree", "reduction_tree", 8, 256, {}},
      {"reduction_tree_lrr", "reduction_tree", 8, 256, {}, 0, true},
      {"softmax", "softmax", 4, 32, {{"cols", "100"}}},
      {"softmax_1024", "softmax", 64, 32, {{"cols", "1024"}}},
      {"bank_conflict_1", "bank_conflict", 528, 512, {{"stride", "1"}, {"iters", "64"}}, 1},
      {"bank_conflict_32", "bank_conflict", 528, 512, {{"stride", "32"}, {"iters", "64"}}, 1},
      {"divergence_8", "divergence", 1056, 256, {{"paths", "8"}, {"work", "16"}}, 1},
      {"branch_data_random", "branch_data", 1056, 256, {{"work", "16"}}, 1},
      {"branch_data_sorted", "branch_data", 1056, 256, {{"work", "16"}, {"x", "threads:sorted"}}, 1},
      {"pointer_chase", "pointer_chase", 1, 1, {{"next", "65536:chase:7"}, {"steps", "2000"}}},
      {"pointer_chase_relaunch", "pointer_chase_relaunch", 1, 1,
       {{"next", "1048576:chase:7"}, {"steps", "1000"}, {"prior", "1256"}, {"warm", "256"}}},
      {"stream_copy", "stream_copy", 132 * 4, 256, {{"n", "4194304"}}, 2},
      {"stream_read", "stream_read", 132 * 2, 512, {{"n", "4194304"}}, 2},
      {"strided_read_8", "strided_read", 2048, 256, {{"stride", "8"}}, 2},
  };
  return c;
}

std::string hex(double v) { return fmt::format("{:a}", v); }

std::string fnv(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : text) h = (h ^ ch) * 0x100000001b3ull;
  return fmt::format("{:016x}", h);
}

// FNV-1a over the pages whose contents differ from the buffer's generated contents (what the
// kernel wrote), whether or not the model keeps a page in memory.
std::string buffer_hash(const Buffer& b) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t p = 0; p < b.pages.size(); ++p) {
    const std::uint8_t* page = b.pages.find(p);
    if (!page) continue;
    bool written = false;
    for (std::uint64_t o = 0; o < GlobalMemory::kPage && p * GlobalMemory::kPage + o < b.bytes() && !written; o += 4) {
      std::uint32_t v;
      std::memcpy(&v, page + o, 4);
      written = v != b.generated_word((p * GlobalMemory::kPage + o) / 4);
    }
    if (!written) continue;
    h = (h ^ p) * 0x100000001b3ull;
    for (std::uint64_t i = 0; i < GlobalMemory::kPage; ++i) h = (h ^ page[i]) * 0x100000001b3ull;
  }
  return fmt::format("{:016x}", h);
}

json figures(const GoldenCase& c) {
  WarpParams p = test::h100();
  p.gto = !c.lrr;
  LaunchOptions o;
  o.args.grid = c.grid;
  o.args.block = c.block;
  o.args.args = c.args;
  o.sample_sms = c.sample_sms;
  o.trace = c.trace;
  auto r = simulate_kernel(p, load_kernel("workloads/kernels/" + c.kernel + ".hwk"), o);
  const KernelStats& s = r->stats;
  const MemoryStats& m = r->memory_stats;
  json f;
  f["cycles"] = s.cycles;
  f["warp_instructions"] = s.warp_instructions;
  f["thread_instructions"] = s.thread_instructions;
  f["stall"] = s.stall;
  f["lane_hist"] = s.lane_hist;
  f["warp_cycles_resident"] = hex(s.warp_cycles_resident);
  f["sms_simulated"] = s.sms_simulated;
  f["ctas_simulated"] = s.ctas_simulated;
  f["memory"] = {m.requests, m.sectors, m.lines, m.l1_hit_sectors, m.l2_hit_sectors, m.dram_sectors, m.store_sectors};
  f["dram_bytes"] = hex(r->dram_bytes);
  json pcs = json::array();
  for (const PcStats& ps : s.pcs)
    pcs.push_back({ps.issued, ps.lanes, ps.stall, ps.shared_requests, ps.wavefronts, ps.bank_words, ps.bank_requests,
                   ps.worst_wavefronts, ps.global_requests, ps.sectors, ps.lines});
  f["pcs"] = fnv(pcs.dump());  // per instruction: issued, lanes, stalls, banks, sectors
  json buffers = json::object();
  for (const auto& b : r->memory.buffers()) buffers[b->name] = buffer_hash(*b);
  f["buffers"] = buffers;
  if (c.trace) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const TraceEvent& e : s.events) {
      const TraceTrack& t = s.tracks[std::size_t(e.track)];
      for (std::uint64_t v : {std::uint64_t(e.start), std::uint64_t(e.end), std::uint64_t(t.sm), t.cta,
                              std::uint64_t(t.warp_in_cta), std::uint64_t(e.what), std::uint64_t(e.pc), std::uint64_t(e.count)})
        h = (h ^ v) * 0x100000001b3ull;
    }
    f["trace"] = {s.events.size(), fmt::format("{:016x}", h)};
  }
  return f;
}

const char* kGolden = "tests/data/warp_kernels_golden.json";

}  // namespace

// Every case's figures (also used to write the file from another build of the model).
nlohmann::json warp_golden_figures() {
  json all = json::object();
  for (const auto& c : cases()) all[c.name] = figures(c);
  return all;
}

TEST_CASE("warp golden: every shipped kernel's figures are unchanged") {
  json actual = warp_golden_figures();
  if (std::getenv("HWSIM_WRITE_WARP_GOLDEN")) {
    std::ofstream(kGolden) << actual.dump(1) << "\n";
    MESSAGE("wrote " << kGolden);
    return;
  }
  std::ifstream in(kGolden);
  REQUIRE_MESSAGE(in.good(), kGolden << " is missing");
  json expected = json::parse(in);
  for (const auto& c : cases()) {
    INFO(c.name);
    REQUIRE(expected.contains(c.name));
    for (const auto& item : expected[c.name].items()) {
      const std::string key = item.key();  // a copy: clang 14 cannot capture a structured binding in INFO
      const auto& value = item.value();
      INFO(key);
      CHECK(actual[c.name][key] == value);
    }
  }
  CHECK(expected.size() == actual.size());
}

TEST_CASE("warp golden: every shipped kernel has a case") {
  for (const auto& entry : std::filesystem::directory_iterator("workloads/kernels")) {
    if (entry.path().extension() != ".hwk") continue;
    std::string stem = entry.path().stem().string();
    bool found = false;
    for (const auto& c : cases()) found |= c.kernel == stem;
    CHECK_MESSAGE(found, stem << ".hwk has no golden case");
  }
}
