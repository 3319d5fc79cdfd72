#pragma once
// A sequence of large records, in order, each kept in a stable slot of a pool: removing records
// from the middle moves pointers, not records, and freed slots are reused (their storage too: a
// record's vectors keep their capacity). Indexing and iteration give the records themselves.
// The flow network keeps its live flows this way: a flow holds callbacks and exact sums, hundreds
// of bytes, and the flows finishing at an instant are seldom the last ones.
#include <boost/iterator/indirect_iterator.hpp>
#include <cstddef>
#include <deque>
#include <vector>

namespace hwsim {

template <class T>
class StableTable {
 public:
  using iterator = boost::indirect_iterator<typename std::vector<T*>::iterator>;
  using const_iterator = boost::indirect_iterator<typename std::vector<T*>::const_iterator>;

  T& operator[](std::size_t i) { return *order_[i]; }
  const T& operator[](std::size_t i) const { return *order_[i]; }
  std::size_t size() const { return order_.size(); }
  bool empty() const { return order_.empty(); }
  T& back() { return *order_.back(); }
  iterator begin() { return order_.begin(); }
  iterator end() { return order_.end(); }
  const_iterator begin() const { return order_.begin(); }
  const_iterator end() const { return order_.end(); }

  void push_back(T&& x) { order_.push_back(&(*acquire() = std::move(x))); }
  // Removes the records `gone(record)` is true for (called once for each, in order); false when
  // none was.
  template <class Gone>
  bool remove_if(Gone gone) {
    std::size_t kept = 0;
    for (T* x : order_) {
      if (gone(*x)) free_.push_back(x);
      else order_[kept++] = x;
    }
    bool removed = kept < order_.size();
    order_.resize(kept);
    return removed;
  }
  // Record i is replaced by `parts`, in order.
  void replace(std::size_t i, std::vector<T>&& parts) {
    free_.push_back(order_[i]);
    std::vector<T*> slots;
    slots.reserve(parts.size());
    for (T& p : parts) slots.push_back(&(*acquire() = std::move(p)));
    order_.erase(order_.begin() + std::ptrdiff_t(i));
    order_.insert(order_.begin() + std::ptrdiff_t(i), slots.begin(), slots.end());
  }

 private:
  T* acquire() {
    if (free_.empty()) return &pool_.emplace_back();
    T* x = free_.back();
    free_.pop_back();
    return x;
  }
  std::vector<T*> order_;
  std::deque<T> pool_;
  std::vector<T*> free_;
};

}  // namespace hwsim
