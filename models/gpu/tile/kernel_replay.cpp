#include "models/gpu/tile/kernel_replay.h"

#include <algorithm>

namespace hwsim {

std::size_t KernelOutcome::bytes() const {
  std::size_t n = sizeof(KernelOutcome) + governor.observed.size() * sizeof(GpuClockDomain::Observation);
  for (const auto& c : after.l2) n += c.held.size() * sizeof(CacheResidency::Held);
  if (after.mall) n += after.mall->held.size() * sizeof(CacheResidency::Held);
  return n + after.written_back.size() * sizeof(WrittenBack);
}

std::vector<std::shared_ptr<const KernelOutcome>>* KernelReplays::find(const Key& key) {
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second.outcomes;
}

void KernelReplays::touch(Entry& e) { ages_.splice(ages_.begin(), ages_, e.age); }

void KernelReplays::used(const Key& key, std::size_t index) {
  Entry& e = entries_.at(key);
  auto& list = e.outcomes;
  std::rotate(list.begin(), list.begin() + std::ptrdiff_t(index), list.begin() + std::ptrdiff_t(index) + 1);
  touch(e);
}

void KernelReplays::store(const Key& key, std::shared_ptr<const KernelOutcome> outcome) {
  auto [it, fresh] = entries_.try_emplace(key);
  Entry& e = it->second;
  if (fresh) ages_.push_front(key), e.age = ages_.begin();
  else touch(e);
  if (e.outcomes.size() == kMaxPerKey) bytes_ -= e.outcomes.back()->bytes(), e.outcomes.pop_back();
  bytes_ += outcome->bytes();
  e.outcomes.insert(e.outcomes.begin(), std::move(outcome));
  while (bytes_ > kMaxBytes && ages_.size() > 1) {  // the oldest keys go (never the one just stored)
    auto old = entries_.find(ages_.back());
    for (const auto& o : old->second.outcomes) bytes_ -= o->bytes();
    entries_.erase(old);
    ages_.pop_back();
  }
}

}  // namespace hwsim
