#pragma once
// The warps of one SM sub-partition waiting to issue, grouped by issue class (the pipe of their
// next instruction and the SM-wide queue it needs: none, MIO for shared memory and shuffles, LSU
// for global memory), so a scheduler looks only at warps that can issue. A warp is *pending* until
// its operands are ready (WarpState::dep_ready), then *ready*; within a class the ready warps are
// kept oldest first. The scheduler removes a warp when it issues and adds it again, with its next
// instruction's class and ready time, after it issued (warp_state.h: `dep_ready` changes only then
// or at a barrier release). Warps at a barrier or retired are in no queue.
#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cstdint>
#include <vector>

#include "models/gpu/warp/isa.h"
#include "models/gpu/warp/warp_state.h"

namespace hwsim::warp {

// Issue class of an instruction: pipe × queue (0 none, 1 MIO, 2 LSU), as pipe · 4 + queue.
inline constexpr int kIssueClasses = kPipes * 4;
static_assert(kIssueClasses <= 32, "the classes in use are a 32-bit mask");
inline int issue_class(const Instr& in) {
  int queue = (in.op == Op::shfl || in.space == Space::shared) ? 1 : in.space == Space::global || in.space == Space::local ? 2 : 0;
  return int(in.pipe) * 4 + queue;
}
inline Pipe class_pipe(int cls) { return Pipe(cls >> 2); }
inline int class_queue(int cls) { return cls & 3; }

class IssueQueues {
 public:
  static constexpr int kMaxWarps = 64;  // warps of one sub-partition: a 64-bit mask

  // Gives a newly resident warp its slot (WarpState::issue_slot) until detach(). Warps attach in
  // age order (each younger than all before it), and slots follow age: a younger warp has a higher
  // slot, so the oldest of a set of slots is its lowest bit. A freed slot is not given again until
  // the slots run out; then the warps are renumbered, in order, from 0.
  void attach(WarpState* w) {
    if (next_ == kMaxWarps) compact();
    const int slot = next_++;
    occupied_ |= std::uint64_t(1) << slot;
    warp_[std::size_t(slot)] = w;
    age_[std::size_t(slot)] = w->age;
    w->issue_slot = std::uint8_t(slot);
  }
  void detach(const WarpState* w) { occupied_ &= ~(std::uint64_t(1) << w->issue_slot); }
  // Queues `w` (operands ready at w->dep_ready) in class `cls`.
  void add(WarpState* w, int cls) {
    w->issue_class = std::uint8_t(cls);
    push(pending_[std::size_t(cls)], Entry{w->dep_ready, w->issue_slot});
    used_ |= 1u << cls;
    not_before_ = std::min(not_before_, w->dep_ready);
  }
  // No queued warp can issue before this cycle (a lower bound: what holds a class back, its pipe
  // and queue, only ever frees later). The scheduler sets it after a cycle in which none could
  // issue; add() lowers it.
  std::int64_t not_before() const { return not_before_; }
  void set_not_before(std::int64_t t) { not_before_ = t; }
  // Moves the pending warps of class k whose operands are ready at cycle t to its ready set.
  void promote(int k, std::int64_t t) {
    auto& heap = pending_[std::size_t(k)];
    while (!heap.empty() && heap.front().key <= t) {
      const int slot = heap.front().slot;
      pop(heap);
      ready_[std::size_t(k)] |= std::uint64_t(1) << slot;
      warp_[std::size_t(slot)]->issue_ready = true;
    }
  }
  // Removes a ready warp (it is issuing).
  void take(WarpState* w) {
    const int k = w->issue_class;
    ready_[std::size_t(k)] &= ~(std::uint64_t(1) << w->issue_slot);
    w->issue_ready = false;
    if (!ready_[std::size_t(k)] && pending_[std::size_t(k)].empty()) used_ &= ~(1u << k);
  }
  // Classes holding a warp (bit k: class k).
  std::uint32_t used() const { return used_; }
  // The slot of the oldest ready warp of class k (of those in slot `from` or later: as old as the
  // warp there or younger), or -1.
  int oldest_ready(int k, int from = 0) const {
    const std::uint64_t m = ready_[std::size_t(k)] & (~std::uint64_t(0) << from);
    return m ? std::countr_zero(m) : -1;
  }
  bool has_ready(int k) const { return ready_[std::size_t(k)] != 0; }
  WarpState* warp(int slot) const { return warp_[std::size_t(slot)]; }
  std::uint64_t age(int slot) const { return age_[std::size_t(slot)]; }
  // The earliest operand-ready cycle of class k's warps: its earliest pending warp's, or, when it
  // has ready warps, none (the lowest cycle).
  std::int64_t earliest(int k) const {
    return ready_[std::size_t(k)] ? INT64_MIN : pending_[std::size_t(k)].front().key;
  }

 private:
  // A pending warp: its slot and its operand-ready cycle, kept together so the heap is searched
  // without touching warp state.
  struct Entry {
    std::int64_t key;
    int slot;
  };
  // A binary min-heap on key (small: a sub-partition's warps), written out so it inlines.
  static void push(std::vector<Entry>& h, Entry e) {
    std::size_t i = h.size();
    h.push_back(e);
    while (i > 0 && h[(i - 1) / 2].key > e.key) h[i] = h[(i - 1) / 2], i = (i - 1) / 2;
    h[i] = e;
  }
  static void pop(std::vector<Entry>& h) {
    const Entry last = h.back();
    h.pop_back();
    const std::size_t n = h.size();
    if (n == 0) return;
    std::size_t i = 0;
    for (;;) {
      std::size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && h[c + 1].key < h[c].key) ++c;
      if (h[c].key >= last.key) break;
      h[i] = h[c], i = c;
    }
    h[i] = last;
  }
  // Renumbers the attached warps 0, 1, ... in slot (age) order, in every structure that names a slot.
  void compact() {
    std::array<std::uint8_t, kMaxWarps> to{};
    int n = 0;
    for (std::uint64_t m = occupied_; m; m &= m - 1) {
      const int slot = std::countr_zero(m);
      to[std::size_t(slot)] = std::uint8_t(n);
      warp_[std::size_t(n)] = warp_[std::size_t(slot)];
      age_[std::size_t(n)] = age_[std::size_t(slot)];
      warp_[std::size_t(n)]->issue_slot = std::uint8_t(n);
      ++n;
    }
    for (auto& r : ready_) {
      std::uint64_t moved = 0;
      for (std::uint64_t m = r; m; m &= m - 1) moved |= std::uint64_t(1) << to[std::size_t(std::countr_zero(m))];
      r = moved;
    }
    for (auto& heap : pending_)
      for (Entry& e : heap) e.slot = to[std::size_t(e.slot)];
    occupied_ = n == kMaxWarps ? ~std::uint64_t(0) : (std::uint64_t(1) << n) - 1;
    next_ = n;
  }
  std::array<std::vector<Entry>, kIssueClasses> pending_;  // per class: min-heap on dep_ready
  std::array<std::uint64_t, kIssueClasses> ready_{};       // per class: slots whose operands are ready
  std::array<WarpState*, kMaxWarps> warp_{};
  std::array<std::uint64_t, kMaxWarps> age_{};
  std::uint64_t occupied_ = 0;
  int next_ = 0;                                            // the slot the next warp attaches in
  std::uint32_t used_ = 0;
  std::int64_t not_before_ = 0;
};

}  // namespace hwsim::warp
