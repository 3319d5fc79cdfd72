#include "models/gpu/tile/kernel_replay.h"

#include <algorithm>

namespace hwsim {

std::size_t KernelOutcome::bytes() const {
  std::size_t n = sizeof(KernelOutcome) + governor.observed.size() * sizeof(GpuClockDomain::Observation) +
                  governor.spans.size() * sizeof(GpuClockDomain::Counters) + after.bytes();
  for (const ChainLink& l : links_) n += sizeof(ChainLink) + (l.codes.size() + l.others.size()) * sizeof(std::int64_t);
  return n;
}

const ChainLink& KernelOutcome::link(std::span<const std::int64_t> codes) const {
  for (const ChainLink& l : links_)
    if (std::equal(l.codes.begin(), l.codes.end(), codes.begin(), codes.end())) return l;
  RenamedState renamed = rename_linked(after, codes);
  ChainLink fresh{{codes.begin(), codes.end()}, renamed.digest, std::move(renamed.others)};
  if (links_.size() < kMaxLinks) return links_.emplace_back(std::move(fresh));
  ChainLink& slot = links_[next_link_];
  next_link_ = (next_link_ + 1) % kMaxLinks;
  return slot = std::move(fresh);
}

std::vector<std::shared_ptr<const KernelOutcome>>* KernelReplays::find(const Key& key) {
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second.outcomes;
}

void KernelReplays::touch(Entry& e) { ages_.splice(ages_.begin(), ages_, e.age); }

// The outcome taken is counted again (its links may have grown since).
void KernelReplays::used(const Key& key, std::size_t index) {
  Entry& e = entries_.at(key);
  auto first = std::ptrdiff_t(index), next = first + 1;
  std::rotate(e.outcomes.begin(), e.outcomes.begin() + first, e.outcomes.begin() + next);
  std::rotate(e.counted.begin(), e.counted.begin() + first, e.counted.begin() + next);
  std::size_t now = e.outcomes.front()->bytes();
  bytes_ = bytes_ - e.counted.front() + now, e.counted.front() = now;
  touch(e);
  trim();
}

void KernelReplays::store(const Key& key, std::shared_ptr<const KernelOutcome> outcome) {
  auto [it, fresh] = entries_.try_emplace(key);
  Entry& e = it->second;
  if (fresh) ages_.push_front(key), e.age = ages_.begin();
  else touch(e);
  if (e.outcomes.size() == kMaxPerKey) bytes_ -= e.counted.back(), e.outcomes.pop_back(), e.counted.pop_back();
  std::size_t n = outcome->bytes();
  bytes_ += n;
  e.outcomes.insert(e.outcomes.begin(), std::move(outcome));
  e.counted.insert(e.counted.begin(), n);
  trim();
}

void KernelReplays::trim() {
  while (bytes_ > kMaxBytes && ages_.size() > 1) {
    auto old = entries_.find(ages_.back());
    for (std::size_t n : old->second.counted) bytes_ -= n;
    entries_.erase(old);
    ages_.pop_back();
  }
}

}  // namespace hwsim
