// The JSON document of a warp-model kernel run (README "Kernel programs"): the sampled counters
// as simulated, and under result.whole, result.bandwidth, result.roofline, result.energy the
// whole-kernel figures of KernelMetrics. Formats only.
#include "models/gpu/warp/kernel_figures.h"
#include "viz/warp/kernel_report.h"

namespace hwsim::warp {
namespace {
using nlohmann::json;

json instruction_rows(const KernelRun& r) {
  const auto& s = r.stats;
  json instrs = json::array();
  for (std::size_t i = 0; i < s.pcs.size(); ++i) {
    const auto& ps = s.pcs[i];
    const Instr& in = r.program.code[i];
    json row = {{"pc", i}, {"line", in.line}, {"text", in.text}, {"issued", ps.issued}, {"thread_instructions", ps.lanes},
                {"active_thread_instructions", ps.active_lanes}, {"active_lane_histogram", ps.lane_hist}};
    if (ps.shared_requests) {  // the bank map: distinct words per bank over its requests, requests using each bank
      row["bank_conflict_ways"] = double(ps.wavefronts) / double(ps.shared_requests);
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
  return instrs;
}

json whole_kernel(const KernelMetrics& m) {
  json bandwidth = json::object(), peak = json::object(), percent = json::object(), bytes = json::object();
  for (const auto& t : m.traffic) {
    bytes[t.level] = t.bytes;
    bandwidth[t.level] = t.bandwidth;
    peak[t.level] = t.peak;
    percent[t.level] = t.percent_of_peak;
  }
  return {{"sampled", m.sampled}, {"scale", m.scale}, {"kernel_seconds", m.kernel_seconds},
          {"whole", {{"warp_instructions", m.warp_instructions}, {"thread_instructions", m.thread_instructions},
                     {"flops", m.flops}, {"tensor_flops", m.tensor_flops}, {"bytes", bytes}}},
          {"bandwidth", bandwidth}, {"bandwidth_peak", peak}, {"percent_of_peak", percent},
          {"dram_usable_bandwidth", m.dram_usable},
          {"roofline", {{"flops", m.flops}, {"flop_rate", m.flop_rate}, {"peak_flop_rate", m.peak_flop_rate},
                        {"arithmetic_intensity", m.arithmetic_intensity}, {"ridge_point", m.ridge_point},
                        {"roof", m.roof}, {"percent_of_roof", m.percent_of_roof}, {"bound", m.bound}}},
          {"l2_hit_rate", m.l2_hit_rate}, {"l2_load_hit_rate", m.l2_load_hit_rate},
          {"energy", m.energy}, {"average_power", m.average_power}};
}

}  // namespace

nlohmann::json kernel_document(const KernelRun& r, const KernelFigures& f) {
  const auto& s = r.stats;
  json stalls = json::object();
  for (int i = 0; i < kStalls; ++i) stalls[stall_name(Stall(i))] = s.stall[std::size_t(i)];
  const auto& m = r.memory_stats;
  const auto& o = r.occupancy;
  json result = {{"cycles", s.cycles}, {"seconds", r.seconds}, {"launch_overhead", r.launch_overhead},
                 {"clock_hz", r.clock_hz}, {"warp_instructions", s.warp_instructions},
                 {"thread_instructions", s.thread_instructions}, {"ipc", f.ipc}, {"simd_efficiency", f.simd_efficiency},
                 {"active_thread_instructions", s.active_thread_instructions},
                 {"pred_on_efficiency", f.pred_on_efficiency},
                 {"achieved_occupancy", f.achieved_occupancy}, {"theoretical_occupancy", o.theoretical},
                 {"sms_simulated", s.sms_simulated}, {"ctas_simulated", s.ctas_simulated},
                 {"dominant_stall", stall_name(f.dominant)}, {"stall_cycles", stalls},
                 {"active_lane_histogram", s.lane_hist},
                 {"dram_bytes", double(m.dram_sectors + m.store_sectors) * r.sector_bytes},
                 {"global", {{"requests", m.requests}, {"sectors", m.sectors}, {"l1_hit_sectors", m.l1_hit_sectors},
                             {"l2_hit_sectors", m.l2_hit_sectors}, {"l2_hits_own_fetch", m.l2_hits_own_fetch},
                             {"store_sectors", m.store_sectors}, {"dram_sectors", m.dram_sectors}}},
                 {"host_seconds", r.host_seconds}};
  result.update(whole_kernel(f.metrics));
  return {
      {"level", "warp"},
      {"kernel", {{"name", r.program.name}, {"file", r.program.file}, {"grid", r.grid}, {"block", r.block}}},
      {"result", result},
      {"occupancy",
       {{"threads_per_block", o.threads_per_cta}, {"warps_per_block", o.warps_per_cta},
        {"registers_per_thread", o.registers_per_thread}, {"shared_bytes_per_block", o.shared_per_cta},
        {"blocks_per_sm", o.ctas_per_sm}, {"limit_warps", o.limit_warps}, {"limit_blocks", o.limit_ctas},
        {"limit_registers", o.limit_registers}, {"limit_shared_memory", o.limit_shared}, {"limiter", o.limiter}}},
      {"instructions", instruction_rows(r)},
  };
}

nlohmann::json kernel_document(const KernelRun& r) { return kernel_document(r, kernel_figures(r)); }

}  // namespace hwsim::warp
