#include "models/gpu/tile/partitioned_l2.h"

#include <algorithm>

namespace hwsim {

LevelBytes& LevelBytes::operator+=(const LevelBytes& o) {
  l2_miss += o.l2_miss;
  l2_writeback += o.l2_writeback;
  mall_miss += o.mall_miss;
  mall_writeback += o.mall_writeback;
  return *this;
}

PartitionedCaches::PartitionedCaches(int partitions, double l2_total_bytes, double mall_bytes) {
  l2_.reserve(std::size_t(partitions));
  for (int p = 0; p < partitions; ++p) l2_.emplace_back(l2_total_bytes / partitions);
  if (mall_bytes > 0) {
    mall_.emplace(mall_bytes);
    for (auto& l2 : l2_) l2.record_write_backs(&written_back_);
  }
}

LevelBytes PartitionedCaches::spill() {
  LevelBytes out;
  for (const WrittenBack& w : written_back_)
    out.mall_writeback += mall_->write(w.id, w.end - w.begin, w.begin).writeback_bytes;
  written_back_.clear();
  return out;
}

LevelBytes PartitionedCaches::read(int partition, std::int64_t id, double bytes, double offset) {
  CacheTraffic t = l2_[std::size_t(partition)].read(id, bytes, offset);
  LevelBytes out{t.miss_bytes, t.writeback_bytes, 0, 0};
  if (!mall_) return out;
  out.mall_writeback = spill().mall_writeback;
  if (t.miss_bytes > 0) {
    // The memory-side cache is asked for the range the L2 missed part of; what it lacks of the
    // L2's missed bytes comes from device memory.
    CacheTraffic m = mall_->read(id, bytes, offset);
    out.mall_miss = std::min(t.miss_bytes, m.miss_bytes);
    out.mall_writeback += m.writeback_bytes;
  }
  return out;
}

LevelBytes PartitionedCaches::write(int partition, std::int64_t id, double bytes, double offset) {
  CacheTraffic t = l2_[std::size_t(partition)].write(id, bytes, offset);
  LevelBytes out{0, t.writeback_bytes, 0, 0};
  if (!mall_) return out;
  out.mall_writeback = spill().mall_writeback;
  // A streaming store (id < 0) passes the memory-side cache without allocating.
  if (id < 0) out.mall_writeback += t.writeback_bytes;
  return out;
}

namespace {
// Each operand in order: its size into `bytes`, and `access(operand)`'s LevelBytes into `sum`
// (the l2-only accessors add just the figures they can change).
template <class Access>
void each_operand(std::span<const OperandRead> operands, double& bytes, Access access) {
  for (const OperandRead& o : operands) {
    bytes += o.bytes;
    access(o);
  }
}
}  // namespace

// Without a memory-side cache a read's mall figures are 0, and adding 0 leaves a sum as it was.
void PartitionedCaches::read_all(int partition, std::span<const OperandRead> operands, LevelBytes& sum, double& bytes) {
  if (mall_) return each_operand(operands, bytes, [&](const OperandRead& r) { sum += read(partition, r.object, r.bytes, r.offset); });
  // The sums kept in scalars: added in place, the pair would be stored half by half and loaded
  // whole (a stalled store forwarding per operand).
  CacheResidency& l2 = l2_[std::size_t(partition)];
  double miss = sum.l2_miss, writeback = sum.l2_writeback;
  each_operand(operands, bytes, [&](const OperandRead& r) {
    CacheTraffic t = l2.read(r.object, r.bytes, r.offset);
    miss += t.miss_bytes;
    writeback += t.writeback_bytes;
  });
  sum.l2_miss = miss, sum.l2_writeback = writeback;
}

void PartitionedCaches::write_all(int partition, std::span<const OperandRead> operands, LevelBytes& sum, double& bytes) {
  CacheResidency& l2 = l2_[std::size_t(partition)];
  each_operand(operands, bytes, [&](const OperandRead& w) {
    if (mall_) return void(sum += write(partition, w.object, w.bytes, w.offset));
    sum.l2_writeback += l2.write(w.object, w.bytes, w.offset).writeback_bytes;
  });
}

LevelBytes PartitionedCaches::release() {
  LevelBytes out;
  for (auto& l2 : l2_) out.l2_writeback += l2.clean_all();  // recorded for the memory-side cache, if any
  if (mall_) out.mall_writeback += spill().mall_writeback;
  return out;
}

std::size_t PartitionedCaches::State::bytes() const {
  std::size_t n = written_back.size() * sizeof(WrittenBack);
  for (const auto& c : l2) n += c.held.size() * sizeof(CacheResidency::Held);
  if (mall) n += mall->held.size() * sizeof(CacheResidency::Held);
  return n;
}

PartitionedCaches::State PartitionedCaches::state() const {
  State s;
  for (const auto& l2 : l2_) s.l2.push_back(l2.contents());
  if (mall_) s.mall = mall_->contents();
  s.written_back = written_back_;
  return s;
}

void PartitionedCaches::set_state(const State& s) {
  for (std::size_t i = 0; i < l2_.size(); ++i) l2_[i].set_contents(s.l2[i]);
  if (mall_) mall_->set_contents(*s.mall);
  written_back_ = s.written_back;
}

}  // namespace hwsim
