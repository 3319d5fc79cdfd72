#pragma once
// When each SM of a kernel launch is next stepped: (cycle, SM) pairs popped in that order, at
// most one pending per SM (an earlier wake replaces a later one; a later one is dropped). Most
// wakes are a few cycles ahead, so they go into a calendar of per-cycle SM bitmaps covering the
// next kWindow cycles (a wake and a pop cost a few bit operations); wakes further ahead wait in a
// heap until the calendar reaches them. Contract: a wake is never earlier than the last pop.
#include <bit>
#include <cstdint>
#include <queue>
#include <stdexcept>
#include <vector>

namespace hwsim::warp {

class WakeQueue {
 public:
  static constexpr std::int64_t kNever = INT64_MAX / 4;

  explicit WakeQueue(int sms)
      : words_((sms + 63) / 64), scheduled_(std::size_t(sms), kNever), in_calendar_(std::size_t(sms), 0),
        bits_(std::size_t(kWindow) * std::size_t(words_), 0) {}

  // Asks for SM `sm` to be stepped at cycle t (unless it already is at or before t).
  void wake(int sm, std::int64_t t) {
    std::int64_t& at = scheduled_[std::size_t(sm)];
    if (t >= at) return;
    if (t < now_) throw std::logic_error("WakeQueue: a wake earlier than the cycle last popped");
    if (in_calendar_[std::size_t(sm)]) clear(at, sm);  // superseded (a heap entry is skipped when popped)
    at = t;
    if (t < now_ + kWindow) set(t, sm);
    else later_.push({t, sm});
  }
  // The next (cycle, SM) in order; false when none is pending.
  bool pop(std::int64_t& t, int& sm) {
    for (;;) {
      bring_in_later();
      if (pending_ > 0) break;
      if (later_.empty()) return false;
      now_ = later_.top().first;  // nothing in the calendar: jump to the earliest later wake
    }
    now_ += next_row(slot(now_));
    const std::uint64_t* row = &bits_[std::size_t(slot(now_)) * std::size_t(words_)];
    int w = 0;
    while (row[w] == 0) ++w;
    sm = w * 64 + std::countr_zero(row[w]);
    t = now_;
    clear(now_, sm);
    scheduled_[std::size_t(sm)] = kNever;
    return true;
  }

 private:
  static constexpr std::int64_t kWindow = 1024;  // cycles the calendar covers (a power of two)
  static std::int64_t slot(std::int64_t t) { return t & (kWindow - 1); }
  // Rows from `from` (wrapping around) to the first that holds an SM; one must.
  std::int64_t next_row(std::int64_t from) const {
    constexpr int kWords = int(kWindow / 64);
    const int w0 = int(from / 64);
    std::uint64_t m = cycle_mask_[w0] & (~std::uint64_t(0) << (from % 64));
    for (int i = 0; i <= kWords; ++i) {
      if (m) return (std::int64_t((w0 + i) % kWords) * 64 + std::countr_zero(m) - from + kWindow) % kWindow;
      m = cycle_mask_[(w0 + i + 1) % kWords];
    }
    throw std::logic_error("WakeQueue: no calendar row holds an SM");
  }
  void set(std::int64_t t, int sm) {
    std::uint64_t* row = &bits_[std::size_t(slot(t)) * std::size_t(words_)];
    row[sm / 64] |= std::uint64_t(1) << (sm % 64);
    cycle_mask_[std::size_t(slot(t) / 64)] |= std::uint64_t(1) << (slot(t) % 64);
    in_calendar_[std::size_t(sm)] = 1;
    ++pending_;
  }
  void clear(std::int64_t t, int sm) {
    std::uint64_t* row = &bits_[std::size_t(slot(t)) * std::size_t(words_)];
    row[sm / 64] &= ~(std::uint64_t(1) << (sm % 64));
    in_calendar_[std::size_t(sm)] = 0;
    --pending_;
    bool empty = true;
    for (int w = 0; w < words_ && empty; ++w) empty = row[w] == 0;
    if (empty) cycle_mask_[std::size_t(slot(t) / 64)] &= ~(std::uint64_t(1) << (slot(t) % 64));
  }
  // Moves the heap's wakes that the calendar now covers into it (skipping superseded ones).
  void bring_in_later() {
    while (!later_.empty() && later_.top().first < now_ + kWindow) {
      auto [t, sm] = later_.top();
      later_.pop();
      if (scheduled_[std::size_t(sm)] == t) set(t, sm);
    }
  }
  int words_;                                   // 64-bit words per cycle's SM bitmap
  std::vector<std::int64_t> scheduled_;         // per SM: its pending wake, kNever when none
  std::vector<std::uint8_t> in_calendar_;               // per SM: that wake is in the calendar (else the heap)
  std::vector<std::uint64_t> bits_;             // calendar: kWindow rows of SM bitmaps
  std::uint64_t cycle_mask_[kWindow / 64] = {}; // calendar rows holding an SM
  std::int64_t pending_ = 0;                    // SMs in the calendar
  std::int64_t now_ = 0;                        // cycle of the last pop (the calendar starts here)
  using Item = std::pair<std::int64_t, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> later_;
};

}  // namespace hwsim::warp
