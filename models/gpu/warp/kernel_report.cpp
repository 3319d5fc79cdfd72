#include "models/gpu/warp/kernel_report.h"

#include <fmt/format.h>
#include <ostream>

#include "models/gpu/warp/bank_map.h"
#include "models/gpu/warp/kernel_figures.h"

namespace hwsim::warp {

std::string dominant_stall_text(const KernelRun& r) {
  Stall d = dominant_stall(r);
  const auto& pcs = r.stats.pcs;
  const Program& prog = r.program;
  std::string out = fmt::format("dominant stall: {} ({})", stall_name(d), stall_explanation(d));
  // the shared access with the worst conflicts, and the global access with the most sectors
  int worst_bank_pc = -1, worst_sector_pc = -1;
  double worst_ways = 1.0, worst_sectors = 0;
  for (std::size_t i = 0; i < pcs.size(); ++i) {
    if (pcs[i].shared_requests) {
      double ways = double(pcs[i].wavefronts) / double(pcs[i].shared_requests);
      if (ways > worst_ways + 0.4) { worst_ways = ways; worst_bank_pc = int(i); }
    }
    if (pcs[i].global_requests) {
      double s = double(pcs[i].sectors) / double(pcs[i].global_requests);
      if (s > worst_sectors) { worst_sectors = s; worst_sector_pc = int(i); }
    }
  }
  if ((d == Stall::short_scoreboard || d == Stall::mio_throttle) && worst_bank_pc >= 0) {
    const auto& ps = pcs[std::size_t(worst_bank_pc)];
    const Instr& in = prog.code[std::size_t(worst_bank_pc)];
    BankAccess ba = bank_conflicts(ps.example_addr.data(), ps.example_mask, 4, 32, 4);
    out += fmt::format("\n  {:.0f}-way bank conflict on average at line {} `{}`: in one warp's access, {} distinct words "
                       "fall into bank {}; each extra way is a replay. Pad rows by one word (stride 33 instead of 32) "
                       "so consecutive lanes hit different banks.",
                       worst_ways, in.line, in.text, ps.worst_wavefronts, ba.worst_bank);
  } else if ((d == Stall::long_scoreboard || d == Stall::lg_throttle) && worst_sector_pc >= 0) {
    const Instr& in = prog.code[std::size_t(worst_sector_pc)];
    int ideal = in.vec * type_bytes(in.type);
    out += fmt::format("\n  global access at line {} `{}` moves {:.1f} sectors of 32 B per warp request ({} would be "
                       "fully coalesced); loads wait ~{} (L1) / {} (L2) / {} (HBM) cycles: more resident warps or more "
                       "independent loads per warp hide that latency.",
                       in.line, in.text, worst_sectors, ideal, r.l1_latency, r.l2_latency, r.hbm_latency);
  }
  if (simd_efficiency(r) < 0.9)
    out += fmt::format("\n  divergence: on average only {:.1f} of 32 lanes are active per instruction (SIMD efficiency {:.0f}%): "
                       "the paths of a divergent branch run one after another.", simd_efficiency(r) * 32, simd_efficiency(r) * 100);
  return out;
}

nlohmann::json kernel_document(const KernelRun& r) {
  using nlohmann::json;
  const auto& s = r.stats;
  json stalls = json::object();
  for (int i = 0; i < kStalls; ++i) stalls[stall_name(Stall(i))] = s.stall[std::size_t(i)];
  json hist = json::array();
  for (auto v : s.lane_hist) hist.push_back(v);
  json instrs = json::array();
  for (std::size_t i = 0; i < s.pcs.size(); ++i) {
    const auto& ps = s.pcs[i];
    const Instr& in = r.program.code[i];
    json h = json::array();
    for (auto v : ps.lane_hist) h.push_back(v);
    json row = {{"pc", i}, {"line", in.line}, {"text", in.text}, {"issued", ps.issued}, {"thread_instructions", ps.lanes},
                {"active_lane_histogram", h}};
    if (ps.shared_requests) row["bank_conflict_ways"] = double(ps.wavefronts) / double(ps.shared_requests);
    if (ps.shared_requests) {  // the bank map: distinct words per bank over its requests, requests using each bank
      row["bank_words"] = ps.bank_words;
      row["bank_requests"] = ps.bank_requests;
    }
    if (ps.global_requests) row["sectors_per_request"] = double(ps.sectors) / double(ps.global_requests);
    json st = json::object();
    for (int k = 0; k < kStalls; ++k)
      if (ps.stall[std::size_t(k)]) st[stall_name(Stall(k))] = ps.stall[std::size_t(k)];
    row["stalls"] = st;
    instrs.push_back(row);
  }
  const auto& m = r.memory_stats;
  const auto& o = r.occupancy;
  json doc = {
      {"level", "warp"},
      {"kernel", {{"name", r.program.name}, {"file", r.program.file}, {"grid", r.grid}, {"block", r.block}}},
      {"result",
       {{"cycles", s.cycles}, {"seconds", r.seconds}, {"launch_overhead", r.launch_overhead},
        {"warp_instructions", s.warp_instructions}, {"thread_instructions", s.thread_instructions},
        {"ipc", ipc(r)}, {"simd_efficiency", simd_efficiency(r)}, {"achieved_occupancy", achieved_occupancy(r)},
        {"theoretical_occupancy", o.theoretical}, {"sms_simulated", s.sms_simulated},
        {"ctas_simulated", s.ctas_simulated}, {"dominant_stall", stall_name(dominant_stall(r))},
        {"stall_cycles", stalls}, {"active_lane_histogram", hist},
        {"dram_bytes", r.dram_bytes},
        {"global", {{"requests", m.requests}, {"sectors", m.sectors}, {"l1_hit_sectors", m.l1_hit_sectors},
                    {"l2_hit_sectors", m.l2_hit_sectors}, {"dram_sectors", m.dram_sectors}}},
        {"host_seconds", r.host_seconds}}},
      {"occupancy",
       {{"threads_per_block", o.threads_per_cta}, {"warps_per_block", o.warps_per_cta},
        {"registers_per_thread", o.registers_per_thread}, {"shared_bytes_per_block", o.shared_per_cta},
        {"blocks_per_sm", o.ctas_per_sm}, {"limit_warps", o.limit_warps}, {"limit_blocks", o.limit_ctas},
        {"limit_registers", o.limit_registers}, {"limit_shared_memory", o.limit_shared}, {"limiter", o.limiter}}},
      {"instructions", instrs},
  };
  return doc;
}

void print_kernel_report(std::ostream& out, const KernelRun& r) {
  const auto& s = r.stats;
  const auto& o = r.occupancy;
  out << fmt::format("kernel {} ({}) on the warp model: grid {} x block {}", r.program.name, r.program.file, r.grid, r.block);
  if (s.sms_simulated < r.sm_count && s.ctas_simulated < r.grid)
    out << fmt::format(" (simulated {} SMs, {} blocks)", s.sms_simulated, s.ctas_simulated);
  out << "\n";
  out << fmt::format("  time            {} cycles = {:.3f} us (+ {:.2f} us launch) at {:.2f} GHz\n", s.cycles,
                     double(s.cycles) / r.clock_hz * 1e6, r.launch_overhead * 1e6, r.clock_hz / 1e9);
  out << fmt::format("  instructions    {} warp, {} thread; IPC {:.2f} per SM (max {})\n", s.warp_instructions,
                     s.thread_instructions, ipc(r), 4);
  out << fmt::format("  SIMD efficiency {:.1f}% ({:.1f} of 32 lanes active per instruction)\n", simd_efficiency(r) * 100, simd_efficiency(r) * 32);
  out << fmt::format("  occupancy       theoretical {:.0f}% ({} blocks x {} warps per SM; limits: warps {}, blocks {}, "
                     "registers {} at {} regs/thread, shared {} at {} B/block; bound by {}), achieved {:.0f}%\n",
                     o.theoretical * 100, o.ctas_per_sm, o.warps_per_cta, o.limit_warps, o.limit_ctas, o.limit_registers,
                     o.registers_per_thread, o.limit_shared, o.shared_per_cta, o.limiter, achieved_occupancy(r) * 100);
  const auto& m = r.memory_stats;
  if (m.requests)
    out << fmt::format("  global memory   {} requests, {:.1f} sectors/request, L1 hits {:.0f}%, L2 hits {:.0f}% of misses, "
                       "{:.1f} MB from DRAM\n", m.requests, double(m.sectors) / double(m.requests),
                       m.sectors ? 100.0 * double(m.l1_hit_sectors) / double(m.sectors) : 0,
                       (m.sectors - m.l1_hit_sectors) ? 100.0 * double(m.l2_hit_sectors) / double(m.sectors - m.l1_hit_sectors - m.store_sectors + 1e-9) : 0,
                       r.dram_bytes / 1e6);
  std::uint64_t total = 0;
  for (auto v : s.stall) total += v;
  out << "  warp cycles by state (Nsight Compute names):\n";
  for (int i = 0; i < kStalls; ++i) {
    auto v = s.stall[std::size_t(i)];
    if (!v) continue;
    out << fmt::format("    {:<20} {:5.1f}%\n", stall_name(Stall(i)), 100.0 * double(v) / double(std::max<std::uint64_t>(total, 1)));
  }
  out << "  " << dominant_stall_text(r) << "\n";
  // bank map of the worst shared access, if conflicted
  for (std::size_t i = 0; i < s.pcs.size(); ++i) {
    const auto& ps = s.pcs[i];
    if (ps.shared_requests && ps.worst_wavefronts > 1) {
      out << fmt::format("  bank map of one warp at line {} `{}` ({}-way):\n", r.program.code[i].line, r.program.code[i].text,
                         ps.worst_wavefronts);
      std::string map = bank_map_text(ps.example_addr.data(), ps.example_mask & 0xff, 32, 4);
      out << map << "    ...\n";
      break;
    }
  }
}

std::string chrome_trace(const KernelRun& r) {
  nlohmann::json events = nlohmann::json::array();
  double us_per_cycle = 1e6 / r.clock_hz;
  for (const auto& e : r.stats.events) {
    Stall what = Stall(e.what);
    events.push_back({{"name", what == Stall::selected ? "issue" : stall_name(what)},
                      {"cat", what == Stall::selected ? "issue" : "stall"},
                      {"ph", "X"},
                      {"ts", double(e.start) * us_per_cycle},
                      {"dur", double(e.end - e.start) * us_per_cycle},
                      {"pid", e.sm},
                      {"tid", e.warp},
                      {"args", {{"block", e.cta}, {"pc", e.pc}, {"line", r.program.code[std::size_t(e.pc)].line},
                                {"instruction", r.program.code[std::size_t(e.pc)].text}}}});
  }
  return nlohmann::json{{"traceEvents", events}, {"displayTimeUnit", "ns"}}.dump() + "\n";
}

}  // namespace hwsim::warp
