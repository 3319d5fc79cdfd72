#pragma once
// A kernel's CTAs as the tile model keeps them: each CTA's figures, and every CTA's operands in one
// array (its reads, then its writes). A lowering makes up to millions of CTAs; two small lists
// per CTA, copied into this form afterwards, cost more than the rest of the lowering. A lowering
// builds CTAs in place (open, its reads, then its writes) or appends one built whole (CtaWork).
#include <boost/container/small_vector.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace hwsim {

struct OperandRead {
  std::int64_t object;  // L2 identity (a panel or a tensor block); < 0 = streaming, never reused
  double bytes;
  double offset = 0;    // first byte within the object
};
using OperandWrite = OperandRead;  // object < 0: streaming store, straight to device memory
// A CTA's operands while it is built whole: most CTAs touch one or two blocks per list, kept inline.
using OperandList = boost::container::small_vector<OperandRead, 2>;

struct CtaWork {
  double flops = 0;
  OperandList reads;
  OperandList writes;  // results (allocated in the write-back L2)
  double scratch_bytes = 0;          // L2-only traffic (split-K partial sums)
};

// Tensors (ops/tensor_ids.h) are split into kTensorBlock-byte L2 objects for reuse between kernels.
constexpr double kTensorBlock = 65536;

// Calls f(OperandRead) for each L2 object covering bytes [begin, end) of tensor `tensor` (one
// streaming read when tensor < 0), in order.
template <class F>
void for_each_tensor_block(std::int64_t tensor, double begin, double end, F&& f);

// The same objects as a list.
OperandList tensor_blocks(std::int64_t tensor, double begin, double end);

class CtaList {
 public:
  struct Cta {
    double flops = 0, scratch_bytes = 0;
    std::uint32_t reads = 0, read_count = 0;    // operands[reads, reads + read_count)
    std::uint32_t writes = 0, write_count = 0;  // operands[writes, writes + write_count)
  };
  struct View {  // one CTA, read back
    double flops, scratch_bytes;
    std::span<const OperandRead> reads, writes;
  };

  // A new CTA; its reads follow, then its writes (a read after a write is a logic error).
  void open(double flops, double scratch_bytes = 0) {
    auto at = std::uint32_t(operands_.size());  // more than 2^32 operands: refused when taken
    ctas_.push_back({flops, scratch_bytes, at, 0, at, 0});
  }
  void read(const OperandRead& r) {
    Cta& c = ctas_.back();
    if (c.write_count > 0) read_after_write();
    ++c.read_count, ++c.writes;
    operands_.push_back(r);
  }
  void write(const OperandRead& w) {
    ++ctas_.back().write_count;
    operands_.push_back(w);
  }
  void read_blocks(std::int64_t tensor, double begin, double end) {
    for_each_tensor_block(tensor, begin, end, [&](const OperandRead& r) { read(r); });
  }
  void write_blocks(std::int64_t tensor, double begin, double end) {
    for_each_tensor_block(tensor, begin, end, [&](const OperandRead& w) { write(w); });
  }
  void add_scratch(double bytes) { ctas_.back().scratch_bytes += bytes; }
  // A CTA built whole (CtaWork), or one read back from another list (View).
  template <class Whole>
  void push_back(const Whole& c) {
    open(c.flops, c.scratch_bytes);
    for (const OperandRead& r : c.reads) read(r);
    for (const OperandRead& w : c.writes) write(w);
  }
  void reserve(std::size_t ctas, std::size_t operands = 0);

  std::size_t size() const { return ctas_.size(); }
  bool empty() const { return ctas_.empty(); }
  View operator[](std::size_t i) const;
  const std::vector<Cta>& ctas() const { return ctas_; }
  const std::vector<OperandRead>& operands() const { return operands_; }
  // Moves the arrays out (the list is left empty); a list of more operands than a Cta indexes
  // (2^32) is a logic error.
  void take(std::vector<Cta>& ctas, std::vector<OperandRead>& operands);

  class Iterator {
   public:
    Iterator(const CtaList* list, std::size_t i) : list_(list), i_(i) {}
    View operator*() const { return (*list_)[i_]; }
    Iterator& operator++() { return ++i_, *this; }
    bool operator!=(const Iterator& o) const { return i_ != o.i_; }

   private:
    const CtaList* list_;
    std::size_t i_;
  };
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size()}; }

 private:
  [[noreturn]] static void read_after_write();
  std::vector<Cta> ctas_;
  std::vector<OperandRead> operands_;
};

template <class F>
void for_each_tensor_block(std::int64_t tensor, double begin, double end, F&& f) {
  if (end <= begin) return;
  if (tensor < 0) return f(OperandRead{-1, end - begin});
  auto first = std::int64_t(std::floor(begin / kTensorBlock));
  auto last = std::int64_t(std::ceil(end / kTensorBlock));
  for (std::int64_t b = first; b < last; ++b) {
    double lo = std::max(begin, double(b) * kTensorBlock), hi = std::min(end, double(b + 1) * kTensorBlock);
    // Tensor ids (< 2^15) sit above 2^24 blocks (1 TiB per tensor), below op objects (>= 2^40).
    f(OperandRead{(tensor << 24) + b, hi - lo, lo - double(b) * kTensorBlock});
  }
}

}  // namespace hwsim
