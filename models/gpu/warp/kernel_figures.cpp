#include "models/gpu/warp/kernel_figures.h"

#include <algorithm>

#include "models/gpu/warp/bank_map.h"

namespace hwsim::warp {

double ipc(const KernelRun& r) {
  const auto& s = r.stats;
  return s.cycles > 0 ? double(s.warp_instructions) / double(s.cycles) / std::max(1, s.sms_simulated) : 0;
}

double simd_efficiency(const KernelRun& r) {
  const auto& s = r.stats;
  return s.warp_instructions ? double(s.active_thread_instructions) / (32.0 * double(s.warp_instructions)) : 0;
}

double pred_on_efficiency(const KernelRun& r) {
  const auto& s = r.stats;
  return s.warp_instructions ? double(s.thread_instructions) / (32.0 * double(s.warp_instructions)) : 0;
}

double achieved_occupancy(const KernelRun& r) {
  const auto& s = r.stats;
  double denom = double(s.cycles) * std::max(1, s.sms_simulated) * double(r.max_warps_per_sm);
  return denom > 0 ? s.warp_cycles_resident / denom : 0;
}

Stall dominant_stall(const KernelRun& r) {
  int best = int(Stall::long_scoreboard);
  for (int i = 0; i < kStalls; ++i) {
    if (Stall(i) == Stall::selected) continue;
    if (r.stats.stall[std::size_t(i)] > r.stats.stall[std::size_t(best)]) best = i;
  }
  return Stall(best);
}

namespace {
BankRow bank_row(const KernelRun& r, std::size_t pc) {
  const PcStats& ps = r.stats.pcs[pc];
  BankRow row;
  row.pc = int(pc), row.line = r.program.code[pc].line, row.text = r.program.code[pc].text;
  row.requests = ps.shared_requests, row.wavefronts = ps.wavefronts;
  row.ways = double(ps.wavefronts) / double(ps.shared_requests);
  row.worst_ways = ps.worst_wavefronts;
  row.words = ps.bank_words, row.used_by = ps.bank_requests;
  row.words.resize(std::size_t(r.banks), 0), row.used_by.resize(std::size_t(r.banks), 0);
  for (std::size_t b = 0; b < row.words.size(); ++b)
    row.ways_per_bank.push_back(row.used_by[b] ? double(row.words[b]) / double(row.used_by[b]) : 0);
  row.banks_hit = int(std::count_if(row.words.begin(), row.words.end(), [](std::uint64_t w) { return w > 0; }));
  if (ps.example_addr.size() >= 32) {
    row.worst_warp = bank_words(ps.example_addr.data(), ps.example_mask, ps.example_bytes, r.banks, r.bank_bytes);
    row.worst_bank = int(std::max_element(row.worst_warp.begin(), row.worst_warp.end()) - row.worst_warp.begin());
  }
  return row;
}

InstrRow instr_row(const KernelRun& r, std::size_t pc) {
  const PcStats& ps = r.stats.pcs[pc];
  InstrRow row;
  row.pc = int(pc), row.line = r.program.code[pc].line, row.text = r.program.code[pc].text;
  row.issued = ps.issued, row.thread_instructions = ps.lanes, row.active_thread_instructions = ps.active_lanes;
  if (ps.shared_requests) row.ways = double(ps.wavefronts) / double(ps.shared_requests);
  if (ps.global_requests) row.sectors_per_request = double(ps.sectors) / double(ps.global_requests);
  std::uint64_t top = 0;
  for (int i = 0; i < kStalls; ++i) {
    std::uint64_t v = ps.stall[std::size_t(i)];
    row.stall_cycles += v;
    if (Stall(i) != Stall::selected && v > top) top = v, row.top_stall = stall_name(Stall(i));
  }
  return row;
}
}  // namespace

KernelFigures kernel_figures(const KernelRun& r) {
  KernelFigures f;
  f.ipc = ipc(r), f.simd_efficiency = simd_efficiency(r), f.pred_on_efficiency = pred_on_efficiency(r), f.achieved_occupancy = achieved_occupancy(r);
  f.dominant = dominant_stall(r);
  for (auto v : r.stats.stall) f.warp_cycles += v;
  for (int i = 0; i < kStalls; ++i) {
    std::uint64_t v = r.stats.stall[std::size_t(i)];
    if (v == 0) continue;
    f.stalls.push_back({Stall(i), stall_name(Stall(i)), stall_explanation(Stall(i)), v, double(v) / double(f.warp_cycles)});
  }
  f.banks = r.banks, f.bank_bytes = r.bank_bytes;
  for (std::size_t pc = 0; pc < r.stats.pcs.size(); ++pc)
    if (r.stats.pcs[pc].shared_requests > 0) f.shared.push_back(bank_row(r, pc));
  for (std::size_t pc = 0; pc < r.stats.pcs.size(); ++pc) f.instructions.push_back(instr_row(r, pc));
  const MemoryStats& m = r.memory_stats;
  if (m.requests) f.sectors_per_request = double(m.sectors) / double(m.requests);
  f.metrics = kernel_metrics(r);
  return f;
}

}  // namespace hwsim::warp
