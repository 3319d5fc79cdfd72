#include "models/gpu/warp/sm_core.h"

#include <algorithm>
#include <bit>
#include <fmt/format.h>

#include "models/gpu/warp/bank_map.h"
#include "models/gpu/warp/coalescer.h"
#include "sim/error.h"

namespace hwsim::warp {

SmCore::SmCore(int id, const WarpParams& p, const Program& program, ExecContext ctx, MemorySystem& memory,
               KernelStats& stats, int cta_slots, const std::vector<std::uint64_t>& param_values)
    : id_(id), p_(p), prog_(program), ctx_(ctx), mem_(memory), stats_(stats), param_values_(param_values),
      ctas_(std::size_t(cta_slots)), sps_(std::size_t(p.sub_partitions)) {}

bool SmCore::has_free_slot() const {
  for (const auto& c : ctas_)
    if (!c.used) return true;
  return false;
}

void SmCore::occupancy_change(std::int64_t t, int delta) {
  stats_.warp_cycles_resident += double(resident_warps_) * double(t - occ_t_);
  occ_t_ = t;
  resident_warps_ += delta;
}

void SmCore::close_occupancy(std::int64_t t) { occupancy_change(std::max(t, occ_t_), 0); }

void SmCore::launch(std::uint64_t cta_id, std::int64_t t) {
  std::size_t slot = 0;
  while (ctas_[slot].used) ++slot;
  Cta& c = ctas_[slot];
  c = Cta{};
  c.used = true;
  c.id = cta_id;
  c.shared.assign(prog_.shared_bytes, 0);
  const int threads = int(ctx_.ntid);
  c.warps = (threads + 31) / 32;
  const std::size_t nregs = prog_.regs.size();
  for (int wi = 0; wi < c.warps; ++wi) {
    WarpState* w = nullptr;
    for (auto& cand : pool_)
      if (!cand->in_use) { w = cand.get(); break; }
    if (!w) {
      pool_.push_back(std::make_unique<WarpState>());
      w = pool_.back().get();
      w->sm_slot = int(pool_.size()) - 1;
    }
    w->in_use = true;
    w->cta_slot = int(slot);
    w->warp_in_cta = wi;
    w->cta_id = cta_id;
    w->age = next_age_++;
    int lanes = std::min(32, threads - wi * 32);
    w->live = lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1);
    w->stack.assign(1, SimtEntry{0, -1, w->live});
    w->regs.assign(nregs * 32, 0);
    w->reg_ready.assign(nregs, 0);
    w->reg_producer.assign(nregs, Stall::wait);
    for (std::size_t i = 0; i < prog_.params.size(); ++i)
      for (int l = 0; l < 32; ++l) w->reg(prog_.params[i].reg, l) = param_values_[i];
    for (const auto& s : prog_.shared)
      for (int l = 0; l < 32; ++l) w->reg(s.reg, l) = s.offset;
    w->ready_at = t;
    w->ready_reason = Stall::no_instruction;
    w->last_issue = t - 1;
    w->waiting_since = t;
    w->at_barrier = w->done = false;
    if (stats_.trace && w->track < 0 && traced_ < stats_.trace_warps) w->track = traced_++;
    refresh(*w);
    // a warp goes to the sub-partition of its warp slot on the SM (slot mod 4), so the warps of
    // several small blocks spread over all four schedulers
    sps_[std::size_t(w->sm_slot) % sps_.size()].warps.push_back(w);
  }
  occupancy_change(t, c.warps);
  ++stats_.ctas_simulated;
}

void SmCore::refresh(WarpState& w) {
  const Instr& in = prog_.code[std::size_t(w.pc())];
  std::int64_t r = w.ready_at;
  Stall why = w.ready_reason;
  auto need = [&](int reg) {
    if (w.reg_ready[std::size_t(reg)] > r) { r = w.reg_ready[std::size_t(reg)]; why = w.reg_producer[std::size_t(reg)]; }
  };
  for (const auto& s : in.src)
    if (s.kind == Operand::k_reg) need(s.reg);
  for (auto d : in.dst) need(d);
  if (in.guard >= 0) need(in.guard);
  w.dep_ready = r;
  w.dep_reason = why;
}

void SmCore::charge(WarpState& w, std::int64_t from, std::int64_t to, Stall why, int pc) {
  if (to <= from) return;
  std::uint64_t n = std::uint64_t(to - from);
  stats_.stall[std::size_t(why)] += n;
  stats_.pcs[std::size_t(pc)].stall[std::size_t(why)] += n;
  if (w.track >= 0 && stats_.events.size() < stats_.trace_limit)
    stats_.events.push_back({from, to, id_, w.track, w.cta_id, std::uint8_t(why), pc});
}

std::int64_t SmCore::step(std::int64_t t) {
  std::int64_t next = kNever;
  ctx_.now = t;
  // sub-partitions compete for the SM-wide MIO (shared memory) and LSU queues; rotate which one
  // goes first each cycle (round-robin arbitration), else sub-partition 0 starves the others and
  // their warps finish late, alone
  const std::size_t nsp = sps_.size();
  const std::size_t first = rotate_++ % nsp;  // per step, not per cycle: a queue freeing every 2 cycles would favour two of four
  for (std::size_t si = 0; si < nsp; ++si) {
    auto& sp = sps_[(first + si) % nsp];
    if (sp.warps.empty()) continue;
    if (sp.issue_free > t) {             // operand collector still reading a conflicting instruction
      next = std::min(next, sp.issue_free);
      continue;
    }
    WarpState* pick = nullptr;
    std::int64_t pick_pipe = 0;
    std::int64_t sp_next = kNever;
    const std::size_t n = sp.warps.size();
    auto consider = [&](WarpState* w) {
      if (w->at_barrier || w->done) return;
      const Instr& in = prog_.code[std::size_t(w->pc())];
      std::int64_t e = std::max(w->dep_ready, sp.pipe_free[std::size_t(in.pipe)]);
      std::int64_t pipe_e = sp.pipe_free[std::size_t(in.pipe)];
      if (in.op == Op::shfl || (in.space == Space::shared)) {
        std::int64_t q = std::int64_t(shared_free_) - p_.mio_queue;
        e = std::max(e, q);
        pipe_e = std::max(pipe_e, q);
      } else if (in.space == Space::global) {
        std::int64_t q = std::int64_t(mem_.tag_free(id_)) - p_.lsu_queue;
        e = std::max(e, q);
        pipe_e = std::max(pipe_e, q);
      }
      if (e <= t) {
        if (!pick) { pick = w; pick_pipe = pipe_e; }
        else sp_next = std::min(sp_next, t + 1);
      } else {
        sp_next = std::min(sp_next, e);
      }
    };
    if (p_.gto) {
      if (sp.greedy) consider(sp.greedy);
      for (std::size_t i = 0; i < n; ++i)
        if (sp.warps[i] != sp.greedy) consider(sp.warps[i]);
    } else {
      for (std::size_t i = 0; i < n; ++i) consider(sp.warps[(sp.rr + i) % n]);
    }
    if (pick) {
      issue(sp, *pick, t, pick_pipe);
      sp_next = t + 1;
    }
    next = std::min(next, sp_next);
  }
  return next;
}

void SmCore::issue(SubPartition& sp, WarpState& w, std::int64_t t, std::int64_t pipe_ready) {
  const int pc = w.pc();
  const Instr& in = prog_.code[std::size_t(pc)];
  // stall accounting: [waiting_since, dep_ready) on the dependency, then throttle, then not selected
  std::int64_t from = w.waiting_since;
  std::int64_t dep = std::clamp(w.dep_ready, from, t);
  charge(w, from, dep, w.dep_reason, pc);
  std::int64_t thr = std::clamp(pipe_ready, dep, t);
  Stall throttle = (in.op == Op::shfl || in.space == Space::shared) ? Stall::mio_throttle
                   : in.space == Space::global ? Stall::lg_throttle : Stall::math_pipe_throttle;
  charge(w, dep, thr, throttle, pc);
  charge(w, thr, t, Stall::not_selected, pc);
  charge(w, t, t + 1, Stall::selected, pc);
  w.waiting_since = t + 1;

  Cta& cta = ctas_[std::size_t(w.cta_slot)];
  ctx_.shared = cta.shared.data();
  ctx_.shared_bytes = cta.shared.size();
  Effects fx = execute(w, in, ctx_);

  PcStats& ps = stats_.pcs[std::size_t(pc)];
  int lanes = std::popcount(fx.mask);
  ++ps.issued;
  ps.lanes += std::uint64_t(lanes);
  ++ps.lane_hist[std::size_t(lanes)];
  ++stats_.warp_instructions;
  stats_.thread_instructions += std::uint64_t(lanes);
  ++stats_.lane_hist[std::size_t(lanes)];

  sp.pipe_free[std::size_t(in.pipe)] = t + p_.interval[std::size_t(in.pipe)];
  if (p_.rf3_extra > 0 && in.pipe != Pipe::ctrl && in.pipe != Pipe::lsu && in.space == Space::none && in.src.size() >= 3) {
    // Register file: 2 banks (Volta and later), so an instruction reading three distinct
    // registers has two in one bank; unless the operand reuse cache supplies one, the operand
    // collector needs an extra cycle and the sub-partition issues nothing in it.
    int regs[3], n = 0;
    for (const auto& s : in.src)
      if (s.kind == Operand::k_reg && n < 3 && std::find(regs, regs + n, int(s.reg)) == regs + n) regs[n++] = s.reg;
    if (n == 3 && (sp.rf_debt += p_.rf3_extra) >= 1.0) {
      sp.rf_debt -= 1.0;
      sp.issue_free = t + 2;
    }
  }
  sp.greedy = &w;
  if (!p_.gto) {
    auto it = std::find(sp.warps.begin(), sp.warps.end(), &w);
    sp.rr = std::size_t(it - sp.warps.begin() + 1) % std::max<std::size_t>(1, sp.warps.size());
  }
  w.last_issue = t;
  w.ready_at = t + 1;
  w.ready_reason = Stall::wait;
  auto write = [&](std::int64_t ready, Stall why) {
    for (auto d : in.dst) {
      w.reg_ready[d] = ready;
      w.reg_producer[d] = why;
    }
  };
  if (fx.memory && fx.mask) {
    if (fx.space == Space::shared) {
      if (ps.bank_words.empty()) {
        ps.bank_words.assign(std::size_t(p_.banks), 0);
        ps.bank_requests.assign(std::size_t(p_.banks), 0);
      }
      BankAccess ba = bank_conflicts(fx.addr, fx.mask, fx.bytes, p_.banks, p_.bank_bytes, ps.bank_words.data(),
                                     ps.bank_requests.data());
      double start = std::max(double(t), shared_free_);
      shared_free_ = start + ba.wavefronts;
      ++ps.shared_requests;
      ps.wavefronts += std::uint64_t(ba.wavefronts);
      if (ba.wavefronts > ps.worst_wavefronts) {
        ps.worst_wavefronts = ba.wavefronts;
        ps.example_addr.assign(fx.addr, fx.addr + 32);
        ps.example_mask = fx.mask;
        ps.example_bytes = fx.bytes;
      }
      if (!fx.store)
        write(std::int64_t(start) + p_.shared_latency + (ba.wavefronts - 1) * p_.replay_cycles, Stall::short_scoreboard);
    } else {
      Coalesced c = coalesce(fx.addr, fx.mask, fx.bytes, p_.line_bytes, p_.sector_bytes);
      ++ps.global_requests;
      ps.sectors += std::uint64_t(c.sectors());
      ps.lines += std::uint64_t(c.count);
      if (fx.store) mem_.store(id_, t, c, false);
      else if (fx.atomic) write(mem_.store(id_, t, c, true), Stall::long_scoreboard);
      else write(mem_.load(id_, t, c, in.l2_only), Stall::long_scoreboard);
    }
  } else if (in.op == Op::shfl) {
    double start = std::max(double(t), shared_free_);
    shared_free_ = start + 1;
    write(std::int64_t(start) + p_.latency[std::size_t(Pipe::lsu)], Stall::short_scoreboard);
  } else if (in.pipe != Pipe::ctrl && in.pipe != Pipe::lsu) {
    write(t + p_.latency[std::size_t(in.pipe)], in.pipe == Pipe::sfu ? Stall::short_scoreboard : Stall::wait);
  }
  switch (fx.control) {
    case Effects::branch:
      w.ready_at = t + 1 + p_.branch_cycles;
      w.ready_reason = Stall::branch_resolving;
      break;
    case Effects::barrier: {
      if (cta.done > 0)
        workload_error(fmt::format("kernel {}: barrier deadlock at {}:{}: block {} has warps that exited without reaching bar.sync",
                                   prog_.name, prog_.file, in.line, cta.id));
      w.at_barrier = true;
      ++cta.arrived;
      if (cta.arrived == cta.warps) {
        std::int64_t release = t + p_.barrier_cycles;
        for (auto& s : sps_)
          for (WarpState* o : s.warps)
            if (o->cta_slot == w.cta_slot && o->at_barrier) {
              o->at_barrier = false;
              charge(*o, o->waiting_since, release, Stall::barrier, o->pc());
              o->waiting_since = release;
              o->ready_at = release;
              o->ready_reason = Stall::barrier;
              refresh(*o);
            }
        cta.arrived = 0;
        return;
      }
      break;
    }
    case Effects::exited:
      if (w.done) {
        if (cta.arrived > 0)
          workload_error(fmt::format("kernel {}: barrier deadlock: in block {}, warp {} exited while {} warp(s) wait at bar.sync",
                                     prog_.name, cta.id, w.warp_in_cta, cta.arrived));
        retire(sp, w, t);
        return;
      }
      break;
    default:
      break;
  }
  if (!w.at_barrier) refresh(w);
}

void SmCore::retire(SubPartition& sp, WarpState& w, std::int64_t t) {
  Cta& cta = ctas_[std::size_t(w.cta_slot)];
  sp.warps.erase(std::find(sp.warps.begin(), sp.warps.end(), &w));
  if (sp.greedy == &w) sp.greedy = nullptr;
  if (!sp.warps.empty()) sp.rr %= sp.warps.size();
  w.in_use = false;
  occupancy_change(t + 1, -1);
  if (++cta.done == cta.warps) {
    cta.used = false;
    cta.shared.clear();
    if (on_cta_done) on_cta_done(id_, t + 1);
  }
}

}  // namespace hwsim::warp
