#include "models/gpu/warp/sm_core.h"

#include <algorithm>
#include <bit>
#include <fmt/format.h>

#include "models/gpu/warp/bank_map.h"
#include "models/gpu/warp/coalescer.h"
#include "models/gpu/warp/warp_trace.h"
#include "sim/error.h"

namespace hwsim::warp {
namespace {
bool tensor_or_async(Op op) {
  return op == Op::mma || op == Op::wgmma || op == Op::cp_async || op == Op::cp_commit || op == Op::cp_wait ||
         op == Op::wgmma_commit || op == Op::wgmma_wait;
}
}  // namespace

SmCore::SmCore(int id, const WarpParams& p, const Program& program, ExecContext ctx, MemorySystem& memory,
               KernelStats& stats, int cta_slots, const std::vector<std::uint64_t>& param_values)
    : id_(id), p_(p), prog_(program), ctx_(ctx), mem_(memory), stats_(stats), param_values_(param_values),
      ctas_(std::size_t(cta_slots)), sps_(std::size_t(p.sub_partitions)) {
  if ((p.chip.max_warps_per_sm + p.sub_partitions - 1) / p.sub_partitions > IssueQueues::kMaxWarps)
    config_error(fmt::format("gpu.sm.max_warps {} over gpu.warp.sub_partitions {}: the warp model schedules at most {} "
                             "warps per sub-partition", p.chip.max_warps_per_sm, p.sub_partitions, IssueQueues::kMaxWarps));
  for (const Instr& in : program.code) {
    Decoded d;
    d.cls = std::uint8_t(issue_class(in));
    d.throttle = (in.op == Op::shfl || in.space == Space::shared) ? Stall::mio_throttle
                 : in.space == Space::global || in.space == Space::local ? Stall::lg_throttle
                                                                    : Stall::math_pipe_throttle;
    int regs[3], n = 0;  // distinct source registers, at most three counted
    for (const auto& s : in.src)
      if (s.kind == Operand::k_reg && n < 3 && std::find(regs, regs + n, int(s.reg)) == regs + n) regs[n++] = s.reg;
    d.three_regs = in.pipe != Pipe::ctrl && in.pipe != Pipe::lsu && in.space == Space::none && n == 3;
    d.dep_first = std::uint32_t(dep_regs_.size());
    auto need = [&](int reg) {
      if (std::find(dep_regs_.begin() + std::ptrdiff_t(d.dep_first), dep_regs_.end(), std::uint16_t(reg)) == dep_regs_.end())
        dep_regs_.push_back(std::uint16_t(reg));
    };
    for (const auto& s : in.src)
      if (s.kind == Operand::k_reg) need(s.reg);
    for (auto dst : in.dst) need(dst);
    if (in.guard >= 0) need(in.guard);
    decoded_.push_back(d);
  }
  decoded_.push_back(Decoded{0, Stall::math_pipe_throttle, false, std::uint32_t(dep_regs_.size())});  // end marker
}

bool SmCore::has_free_slot() const {
  for (const auto& c : ctas_)
    if (!c.used) return true;
  return false;
}

void SmCore::occupancy_change(std::int64_t t, int delta) {
  stats_.warp_cycles_resident += double(resident_warps_) * double(t - occ_t_);
  if (resident_warps_ > 0) stats_.sm_busy_cycles += double(t - occ_t_);
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
    w->age = next_age_++;
    w->start(prog_, param_values_, cta_id, wi, threads);
    w->reg_ready.assign(nregs, 0);
    w->reg_producer.assign(nregs, Stall::wait);
    w->ready_at = t;
    w->ready_reason = Stall::no_instruction;
    w->last_issue = t - 1;
    w->waiting_since = t;
    w->track = -1;
    if (stats_.trace && traced_ < stats_.trace_warps) {
      w->track = int(stats_.tracks.size());
      stats_.tracks.push_back({id_, cta_id, wi, -1});
      ++traced_;
    }
    // a warp goes to the sub-partition of its warp slot on the SM (slot mod 4), so the warps of
    // several small blocks spread over all four schedulers
    SubPartition& sp = sps_[std::size_t(w->sm_slot) % sps_.size()];
    sp.warps.push_back(w);
    sp.queues.attach(w);
    refresh(*w);
  }
  occupancy_change(t, c.warps);
  ++stats_.ctas_simulated;
}

void SmCore::refresh(WarpState& w) {
  const std::size_t pc = std::size_t(w.pc());
  std::int64_t r = w.ready_at;
  Stall why = w.ready_reason;
  // the first register with the latest ready time names the reason (sources, destinations, guard)
  for (std::uint32_t i = decoded_[pc].dep_first; i < decoded_[pc + 1].dep_first; ++i) {
    const std::size_t reg = dep_regs_[i];
    if (w.reg_ready[reg] > r) { r = w.reg_ready[reg]; why = w.reg_producer[reg]; }
  }
  w.dep_ready = r;
  w.dep_reason = why;
  SubPartition& sp = sps_[std::size_t(w.sm_slot) % sps_.size()];
  sp.queues.add(&w, decoded_[pc].cls);
  sp.stale = true;
}

void SmCore::charge(WarpState& w, std::int64_t from, std::int64_t to, Stall why, int pc) {
  if (to <= from) return;
  std::uint64_t n = std::uint64_t(to - from);
  stats_.stall[std::size_t(why)] += n;
  stats_.pcs[std::size_t(pc)].stall[std::size_t(why)] += n;
  if (w.track >= 0) trace_interval(stats_, w.track, from, to, why, pc);
}

std::int64_t SmCore::step(std::int64_t t) {
  std::int64_t next = kNever;
  ctx_.now = t;
  // sub-partitions compete for the SM-wide MIO (shared memory) and LSU queues; rotate which one
  // goes first each cycle (round-robin arbitration), else sub-partition 0 starves the others and
  // their warps finish late, alone
  const std::size_t nsp = sps_.size();
  // per step, not per cycle: a queue freeing every 2 cycles would favour two of four
  std::size_t i = rotate_;
  if (++rotate_ == nsp) rotate_ = 0;
  for (std::size_t si = 0; si < nsp; ++si, i = i + 1 == nsp ? 0 : i + 1) {
    auto& sp = sps_[i];
    if (sp.warps.empty()) continue;
    if (sp.issue_free > t) {             // operand collector still reading a conflicting instruction
      next = std::min(next, sp.issue_free);
      continue;
    }
    next = std::min(next, step_sub_partition(sp, t));
  }
  return next;
}

std::int64_t SmCore::class_free(const SubPartition& sp, int cls) const {
  std::int64_t e = sp.pipe_free[std::size_t(class_pipe(cls))];
  switch (class_queue(cls)) {
    case 1: return std::max(e, std::int64_t(shared_free_) - p_.mio_queue);
    case 2: return std::max(e, std::int64_t(mem_.tag_free(id_)) - p_.lsu_queue);
    default: return e;
  }
}

std::int64_t SmCore::next_issue(const SubPartition& sp) const {
  const IssueQueues& q = sp.queues;
  std::int64_t next = kNever;
  for (std::uint32_t m = q.used(); m; m &= m - 1) {
    const int k = std::countr_zero(m);
    next = std::min(next, std::max(q.earliest(k), class_free(sp, k)));
  }
  return next;
}

std::int64_t SmCore::step_sub_partition(SubPartition& sp, std::int64_t t) {
  IssueQueues& q = sp.queues;
  if (t < q.not_before()) {  // none can issue yet: only when one can
    if (sp.stale) sp.next = next_issue(sp), sp.stale = false;
    return sp.next;
  }
  WarpState* greedy = p_.gto ? sp.greedy : nullptr;
  const int greedy_class = greedy ? greedy->issue_class : -1;
  const bool from_rr = !p_.gto && sp.rr > 0;  // LRR: first the warps from warps[rr] on, then all
  const int start = from_rr ? sp.warps[sp.rr]->issue_slot : 0;  // slots follow age
  int best = -1;                    // the oldest that can issue (from warps[rr] on, for LRR)
  int wrapped = -1;                 // LRR: the oldest that can issue before warps[rr]
  std::int64_t best_free = 0, wrapped_free = 0, greedy_free = 0;
  bool greedy_can = false;
  std::int64_t next = kNever;       // when none can issue: the earliest cycle one can
  // one pass over the classes holding warps
  for (std::uint32_t m = q.used(); m; m &= m - 1) {
    const int k = std::countr_zero(m);
    q.promote(k, t);
    const std::int64_t c = class_free(sp, k);
    if (!q.has_ready(k) || c > t) {
      next = std::min(next, std::max(q.earliest(k), c));
      continue;
    }
    if (k == greedy_class && greedy->issue_ready) greedy_can = true, greedy_free = c;
    const int e = q.oldest_ready(k, start);
    if (e >= 0) {
      if (best < 0 || q.age(e) < q.age(best)) best = e, best_free = c;
    } else {
      const int oldest = q.oldest_ready(k);
      if (wrapped < 0 || q.age(oldest) < q.age(wrapped)) wrapped = oldest, wrapped_free = c;
    }
  }
  WarpState* w = greedy_can ? greedy : best >= 0 ? q.warp(best) : wrapped >= 0 ? q.warp(wrapped) : nullptr;
  if (!w) {
    q.set_not_before(next);
    sp.next = next, sp.stale = false;
    return next;
  }
  const std::int64_t pipe_free = greedy_can ? greedy_free : best >= 0 ? best_free : wrapped_free;
  q.take(w);
  // a PTX instruction that stands for a SASS sequence holds the issue port for each of its slots
  const std::int64_t slots = prog_.code[std::size_t(w->pc())].sass_count;
  q.set_not_before(t + slots);
  sp.stale = true;
  issue(sp, *w, t, pipe_free);
  return t + slots;
}

void SmCore::issue(SubPartition& sp, WarpState& w, std::int64_t t, std::int64_t pipe_ready) {
  const int pc = w.pc();
  const Instr& in = prog_.code[std::size_t(pc)];
  // stall accounting: [waiting_since, dep_ready) on the dependency, then throttle, then not selected
  std::int64_t from = w.waiting_since;
  std::int64_t dep = std::clamp(w.dep_ready, from, t);
  charge(w, from, dep, w.dep_reason, pc);
  std::int64_t thr = std::clamp(pipe_ready, dep, t);
  const Decoded& dec = decoded_[std::size_t(pc)];
  charge(w, dep, thr, dec.throttle, pc);
  if (class_queue(dec.cls) != 0)  // the SM's MIO or LSU queue moves: every sub-partition's next cycle may
    for (auto& other : sps_) other.stale = true;
  charge(w, thr, t, Stall::not_selected, pc);
  charge(w, t, t + 1, Stall::selected, pc);
  w.waiting_since = t + 1;

  Cta& cta = ctas_[std::size_t(w.cta_slot)];
  ctx_.shared = cta.shared.data();
  ctx_.shared_bytes = cta.shared.size();
  Effects fx = execute(w, in, ctx_);

  PcStats& ps = count_issue(pc, fx.active, fx.mask);

  sp.pipe_free[std::size_t(in.pipe)] = t + p_.interval[std::size_t(in.pipe)];
  if (p_.rf3_extra > 0 && dec.three_regs) {
    // Register file: 2 banks (Volta and later), so an instruction reading three distinct
    // registers has two in one bank; unless the operand reuse cache supplies one, the operand
    // collector needs an extra cycle and the sub-partition issues nothing in it.
    if ((sp.rf_debt += p_.rf3_extra) >= 1.0) {
      sp.rf_debt -= 1.0;
      sp.issue_free = t + 2;
    }
  }
  sp.greedy = &w;
  if (!p_.gto) {  // the next scan starts after this warp (warps are in age order)
    auto it = std::lower_bound(sp.warps.begin(), sp.warps.end(), w.age,
                               [](const WarpState* a, std::uint64_t age) { return a->age < age; });
    sp.rr = std::size_t(it - sp.warps.begin() + 1) % std::max<std::size_t>(1, sp.warps.size());
  }
  w.last_issue = t;
  w.ready_at = t + 1;
  w.ready_reason = Stall::wait;
  if (tensor_or_async(in.op)) time_tensor(sp, w, in, fx, ps, t);
  else time_results(w, cta, in, fx, ps, t);
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

PcStats& SmCore::count_issue(int pc, std::uint32_t active, std::uint32_t mask) {
  PcStats& ps = stats_.pcs[std::size_t(pc)];
  int lanes = std::popcount(mask);
  ++ps.issued;
  ps.lanes += std::uint64_t(lanes);
  ps.active_lanes += std::uint64_t(std::popcount(active));
  stats_.active_thread_instructions += std::uint64_t(std::popcount(active));
  ++ps.lane_hist[std::size_t(lanes)];
  ++stats_.warp_instructions;
  stats_.thread_instructions += std::uint64_t(lanes);
  ++stats_.lane_hist[std::size_t(lanes)];
  return ps;
}

void SmCore::set_ready(WarpState& w, const Instr& in, std::int64_t ready, Stall why) {
  for (auto d : in.dst) {
    w.reg_ready[d] = ready;
    w.reg_producer[d] = why;
  }
}

void SmCore::time_results(WarpState& w, Cta& cta, const Instr& in, const Effects& fx, PcStats& ps, std::int64_t t) {
  if (fx.memory && fx.mask) {
    if (fx.space == Space::shared) shared_access(w, in, fx, ps, t);
    else if (fx.space == Space::local) {  // a thread's frame: L1 hits (frames are small and private)
      if (!fx.store) set_ready(w, in, t + p_.l1_latency, Stall::long_scoreboard);
    } else global_access(w, cta, in, fx, ps, t);
  } else if (in.op == Op::shfl) {
    double start = std::max(double(t), shared_free_);
    shared_free_ = start + 1;
    set_ready(w, in, std::int64_t(start) + p_.latency[std::size_t(Pipe::lsu)], Stall::short_scoreboard);
  } else if (in.pipe != Pipe::ctrl && in.pipe != Pipe::lsu) {
    set_ready(w, in, t + p_.latency[std::size_t(in.pipe)] + in.sass_latency,
              in.pipe == Pipe::sfu ? Stall::short_scoreboard : Stall::wait);
  }
}

void SmCore::shared_access(WarpState& w, const Instr& in, const Effects& fx, PcStats& ps, std::int64_t t) {
  if (ps.bank_words.empty()) {
    ps.bank_words.assign(std::size_t(p_.banks), 0);
    ps.bank_requests.assign(std::size_t(p_.banks), 0);
  }
  BankAccess ba = bank_conflicts(fx.addr, fx.mask, fx.bytes, p_.banks, p_.bank_bytes, ps.bank_words.data(),
                                 ps.bank_requests.data());
  // the unified L1/shared data path: shared_free_ is never before the tag stage frees (global
  // accesses keep it so), and the wavefronts hold the tag stage in turn
  double start = std::max(double(t), shared_free_);
  shared_free_ = start + ba.wavefronts;
  mem_.hold_tag_stage(id_, shared_free_);
  ++ps.shared_requests;
  ps.wavefronts += std::uint64_t(ba.wavefronts);
  if (ba.wavefronts > ps.worst_wavefronts) {
    ps.worst_wavefronts = ba.wavefronts;
    ps.example_addr.assign(fx.addr, fx.addr + 32);
    ps.example_mask = fx.mask;
    ps.example_bytes = fx.bytes;
  }
  if (!fx.store)
    set_ready(w, in, std::int64_t(start) + p_.shared_latency + (ba.wavefronts - 1) * p_.replay_cycles, Stall::short_scoreboard);
}

void SmCore::global_access(WarpState& w, Cta& cta, const Instr& in, const Effects& fx, PcStats& ps, std::int64_t t) {
  Coalesced c = coalesce(fx.addr, fx.mask, fx.bytes, p_.line_bytes, p_.sector_bytes);
  ++ps.global_requests;
  ps.sectors += std::uint64_t(c.sectors());
  ps.lines += std::uint64_t(c.count);
  mem_.note_footprint(c, w.cta_id);
  if (fx.store) cta.stores_acked = std::max(cta.stores_acked, mem_.store(id_, t, c));
  else if (fx.atomic) {
    std::int64_t held = t;
    LineAtomics lanes[64];
    line_atomics(fx.addr, fx.mask, p_.line_bytes, c, lanes);
    set_ready(w, in, mem_.atomic(id_, t, c, lanes, held), Stall::long_scoreboard);
    if (held > t) w.ready_at = held, w.ready_reason = Stall::lg_throttle;  // the line's queue is full
  }
  else set_ready(w, in, mem_.load(id_, t, c, in.l2_only), Stall::long_scoreboard);
  shared_free_ = std::max(shared_free_, mem_.tag_free(id_));  // its lines used the shared data path
}

void SmCore::retire(SubPartition& sp, WarpState& w, std::int64_t t) {
  Cta& cta = ctas_[std::size_t(w.cta_slot)];
  sp.warps.erase(std::find(sp.warps.begin(), sp.warps.end(), &w));
  sp.queues.detach(&w);
  if (sp.greedy == &w) sp.greedy = nullptr;
  if (!sp.warps.empty()) sp.rr %= sp.warps.size();
  w.in_use = false;
  occupancy_change(t + 1, -1);
  if (++cta.done == cta.warps) {
    cta.used = false;
    cta.shared.clear();
    if (on_cta_done) on_cta_done(id_, std::max(t + 1, cta.stores_acked));
  }
}

}  // namespace hwsim::warp
