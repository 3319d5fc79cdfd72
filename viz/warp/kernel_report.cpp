#include "viz/warp/kernel_report.h"

#include <fmt/format.h>
#include <ostream>

#include "models/gpu/warp/bank_map.h"
#include "models/gpu/warp/kernel_figures.h"
#include "sim/units.h"

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
  if (pred_on_efficiency(r) < 0.9 * simd_efficiency(r))
    out += fmt::format("\n  predication: of the {:.1f} active lanes per instruction only {:.1f} are not predicated off: "
                       "guarded instructions (an if-converted branch, a bounds check) issue for the whole warp while "
                       "their off lanes do nothing.", simd_efficiency(r) * 32, pred_on_efficiency(r) * 32);
  return out;
}

namespace {

std::string quantity(double v, Dimension d) { return format_quantity(v, d); }

// "2 of 132 SMs ran 8 of 528 blocks: ..." when a subset was simulated, else "".
std::string sample_line(const KernelRun& r, const KernelMetrics& m) {
  if (!m.sampled) return "";
  return fmt::format("  sampled         {} of {} SMs ran {} of {} blocks (--sample-sms); figures marked * are the whole "
                     "kernel's, the sampled counts x {:.3g}\n",
                     r.stats.sms_simulated, r.sm_count, r.stats.ctas_simulated, r.grid, m.scale);
}

void print_memory(std::ostream& out, const KernelRun& r, const KernelMetrics& m) {
  const auto& s = r.memory_stats;
  if (!s.requests) return;
  const char* star = m.sampled ? "*" : "";
  out << fmt::format("  global memory   {} requests{}, {:.1f} sectors/request, L1 hits {:.0f}%\n", s.requests,
                     m.sampled ? " (sampled)" : "", double(s.sectors) / double(s.requests),
                     s.sectors ? 100.0 * double(s.l1_hit_sectors) / double(s.sectors) : 0.0);
  out << fmt::format("  {:<15} {:<26} {:>11} {:>12} {:>12} {:>10}\n", "bandwidth", "level", "bytes", "achieved", "peak",
                     "% of peak");
  for (const auto& t : m.traffic)
    out << fmt::format("  {:<15} {:<26} {:>11} {:>12} {:>12} {:>9.1f}%\n", "", t.label, quantity(t.bytes, Dimension::bytes) + star,
                       quantity(t.bandwidth, Dimension::bandwidth), quantity(t.peak, Dimension::bandwidth), t.percent_of_peak);
  out << fmt::format("  {:<15} achieved = bytes / kernel time (launch left out); DRAM peak is the datasheet's, the model "
                     "sustains at most {} (memory.hbm.efficiency)\n", "", quantity(m.dram_usable, Dimension::bandwidth));
  if (m.l2_load_sectors + m.l2_store_sectors)
    out << fmt::format("  L2 hit rate     {:.1f}% as Nsight Compute counts it (lts__t_sector_hit_rate): loads {:.1f}% of {} "
                       "sectors{}{}\n", 100 * m.l2_hit_rate, 100 * m.l2_load_hit_rate, m.l2_load_sectors,
                       m.l2_store_sectors ? fmt::format(", and {} store sectors, written without a fetch, count as hits",
                                                        m.l2_store_sectors) : std::string(),
                       m.sampled ? " (sampled counts)" : "");
}

void print_roofline(std::ostream& out, const KernelMetrics& m) {
  if (m.flops <= 0) return;
  const char* star = m.sampled ? "*" : "";
  std::string intensity = m.arithmetic_intensity > 0 ? fmt::format("{:.3g} FLOP/B of DRAM traffic", m.arithmetic_intensity)
                                                     : std::string("no DRAM traffic");
  out << fmt::format("  roofline        {}FLOP{}, {} vs ridge {:.3g} FLOP/B -> {}-bound: roof {}, achieved {} ({:.1f}% of "
                     "the roof; peak {})\n",
                     quantity(m.flops, Dimension::none), star, intensity, m.ridge_point, m.bound,
                     quantity(m.roof, Dimension::flop_rate), quantity(m.flop_rate, Dimension::flop_rate),
                     m.percent_of_roof, quantity(m.peak_flop_rate, Dimension::flop_rate));
}

}  // namespace

void print_kernel_report(std::ostream& out, const KernelRun& r, const KernelFigures& f) {
  const auto& s = r.stats;
  const auto& o = r.occupancy;
  const KernelMetrics& m = f.metrics;
  auto shaped = [](std::uint64_t n, const std::string& shape) { return shape.empty() ? std::to_string(n) : fmt::format("{} ({})", n, shape); };
  out << fmt::format("kernel {} ({}) on the warp model: grid {} x block {}\n", r.program.name, r.program.file,
                     shaped(r.grid, r.grid_shape), shaped(r.block, r.block_shape));
  out << fmt::format("  time            {} cycles = {:.3f} us (+ {:.2f} us launch) at {:.2f} GHz (the chip's SM clock, "
                     "gpu.sm.clock; peaks below assume it)\n", s.cycles, m.kernel_seconds * 1e6, r.launch_overhead * 1e6,
                     r.clock_hz / 1e9);
  out << sample_line(r, m);
  out << fmt::format("  instructions    {} warp, {} thread{}; IPC {:.2f} per SM (max {})\n", s.warp_instructions,
                     s.thread_instructions, m.sampled ? fmt::format(" simulated (whole kernel*: {:.4g} warp)", m.warp_instructions) : "",
                     f.ipc, r.issue_width);
  out << fmt::format("  SIMD efficiency {:.1f}% ({:.1f} of 32 lanes active per instruction, {:.1f} not predicated off)\n",
                     f.simd_efficiency * 100, f.simd_efficiency * 32, f.pred_on_efficiency * 32);
  out << fmt::format("  occupancy       theoretical {:.0f}% ({} blocks x {} warps per SM; limits: warps {}, blocks {}, "
                     "registers {} at {} regs/thread, shared memory {} at {} B/block; bound by {}), achieved {:.0f}%\n",
                     o.theoretical * 100, o.ctas_per_sm, o.warps_per_cta, o.limit_warps, o.limit_ctas, o.limit_registers,
                     o.registers_per_thread, o.limit_shared, o.shared_per_cta, o.limiter, f.achieved_occupancy * 100);
  print_memory(out, r, m);
  print_roofline(out, m);
  out << fmt::format("  energy          {}{} (average {})\n", quantity(m.energy, Dimension::energy), m.sampled ? "*" : "",
                     quantity(m.average_power, Dimension::power));
  out << "  warp cycles by state (Nsight Compute names):\n";
  for (const auto& st : f.stalls) out << fmt::format("    {:<20} {:5.1f}%\n", st.name, 100.0 * st.share);
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

}  // namespace hwsim::warp
