#include "models/gpu/tile/kernel_names.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <unordered_map>

#include "models/gpu/tile/tile_step_lowering.h"

namespace hwsim {
namespace {

constexpr std::int64_t kOpObjects = std::int64_t(1) << kOpObjectBits;  // op objects' ids from here
constexpr int kBlockBits = 24;                              // a tensor block's index within its tensor
constexpr std::int64_t kBlockMask = (std::int64_t(1) << kBlockBits) - 1;

// An object's tensor (an op object is its own) and its block within it.
std::int64_t tensor_of(std::int64_t id) { return id >= kOpObjects ? id : id >> kBlockBits; }
std::int64_t block_of(std::int64_t id) { return id >= kOpObjects ? 0 : id & kBlockMask; }
// Canonical ids: the kernel's tensor k as 2k, another tensor j as 2j + 1, above the block bits.
std::int64_t canonical(std::int64_t code, std::int64_t id) { return (code << kBlockBits) | block_of(id); }
std::int64_t actual(std::int64_t tensor, std::int64_t canonical_id) {
  return tensor >= kOpObjects ? tensor : (tensor << kBlockBits) | (canonical_id & kBlockMask);
}

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ULL;
  x ^= x >> 27;
  x *= 0x81dadef4bc2dd44dULL;
  return x ^ (x >> 33);
}

// Numbers tensors in order of first appearance; objects of one tensor mostly come in runs, so the
// last tensor is kept aside. The numbers sit in an open-addressing table (a cache state holds
// hundreds of tensors, and a hash node allocated for each cost more than the digest).
class Numbering {
 public:
  explicit Numbering(std::vector<std::int64_t>& order) : order_(order), slots_(64, Slot{kEmpty, 0}) {}
  std::int64_t operator()(std::int64_t tensor) {
    if (tensor == last_ && last_number_ >= 0) return last_number_;
    Slot& s = slot(tensor);
    if (s.tensor == kEmpty) {
      s = {tensor, std::int64_t(order_.size())};
      order_.push_back(tensor);
      last_ = tensor, last_number_ = s.number;  // before a growth moves the slot
      if (2 * order_.size() > slots_.size()) grow();
      return last_number_;
    }
    last_ = tensor, last_number_ = s.number;
    return last_number_;
  }

 private:
  static constexpr std::int64_t kEmpty = std::numeric_limits<std::int64_t>::min();
  struct Slot {
    std::int64_t tensor, number;
  };
  Slot& slot(std::int64_t tensor) {
    std::size_t mask = slots_.size() - 1, i = std::size_t(mix(std::uint64_t(tensor))) & mask;
    while (slots_[i].tensor != kEmpty && slots_[i].tensor != tensor) i = (i + 1) & mask;
    return slots_[i];
  }
  void grow() {
    std::vector<Slot> old(2 * slots_.size(), Slot{kEmpty, 0});
    old.swap(slots_);
    for (const Slot& s : old)
      if (s.tensor != kEmpty) slot(s.tensor) = s;
  }
  std::vector<std::int64_t>& order_;
  std::vector<Slot> slots_;  // size a power of two, at most half full
  std::int64_t last_ = 0, last_number_ = -1;
};

// Renames every object of `s` in place with `name(id)` (held lists, memory-side cache, write-backs).
template <class F>
void rename_all(PartitionedCaches::State& s, F&& name) {
  for (auto& level : s.l2)
    for (auto& h : level.held) h.id = name(h.id);
  if (s.mall)
    for (auto& h : s.mall->held) h.id = name(h.id);
  for (auto& w : s.written_back) w.id = name(w.id);
}

// The digest of `s` with each object renamed `name(id)`, called in rename_all's order.
template <class F>
Digest digest_of(const PartitionedCaches::State& s, F&& name) {
  Digest d;
  auto level = [&](const CacheResidency::Contents& c) {
    d.add(std::uint64_t(c.held.size()));
    for (const auto& h : c.held)
      d.add(std::uint64_t(name(h.id))), d.add(h.begin), d.add(h.end), d.add(std::uint64_t(h.dirty));
  };
  for (const auto& c : s.l2) level(c);
  d.add(std::uint64_t(s.mall ? 1 : 0));
  if (s.mall) level(*s.mall);
  d.add(std::uint64_t(s.written_back.size()));
  for (const auto& w : s.written_back) d.add(std::uint64_t(name(w.id))), d.add(w.begin), d.add(w.end);
  return d;
}

void add_text(Digest& d, const std::string& text) {
  d.add(std::uint64_t(text.size()));
  for (char c : text) d.add(std::uint64_t(static_cast<unsigned char>(c)));
}

std::shared_ptr<const KernelNames> make_names(const PackedKernel& p) {
  auto names = std::make_shared<KernelNames>();
  Numbering number(names->tensors);
  Digest& d = names->shape;
  const Kernel& k = p.kernel;
  add_text(d, k.op_class), add_text(d, k.config);
  d.add(std::uint64_t(k.dtype)), d.add(std::uint64_t(k.ctas_per_sm));
  for (double x : {k.sm_flop_rate, k.bytes_in_flight, k.l2_read_factor, k.hbm_access_cost, k.prologue, k.grid_combine,
                   k.flops, k.min_bytes, k.peak_flop_rate})
    d.add(x);
  d.add(std::uint64_t(p.ctas.size())), d.add(std::uint64_t(p.operands.size()));
  // A CTA's operands follow one another (reads then writes, CTA after CTA): its counts place them.
  for (const auto& c : p.ctas) {
    d.add(std::uint64_t(std::bit_cast<std::uint64_t>(c.flops) ^ std::rotl(std::bit_cast<std::uint64_t>(c.scratch_bytes), 32)));
    d.add(std::uint64_t(std::uint64_t(c.read_count) << 32 | c.write_count));
  }
  for (const OperandRead& o : p.operands) {
    std::int64_t id = o.object;
    if (id >= 0) id = canonical(2 * number(tensor_of(id)), id);
    d.add(std::uint64_t(std::uint64_t(id) * 0x9e3779b97f4a7c15ULL ^ std::bit_cast<std::uint64_t>(o.bytes) ^
                        std::rotl(std::bit_cast<std::uint64_t>(o.offset), 32)));
  }
  for (std::size_t i = 0; i < names->tensors.size(); ++i) names->by_tensor.emplace_back(names->tensors[i], std::uint32_t(i));
  std::sort(names->by_tensor.begin(), names->by_tensor.end());
  return names;
}

}  // namespace

void Digest::add(double x) { add(std::bit_cast<std::uint64_t>(x)); }

std::size_t DigestHash::operator()(const Digest& d) const { return std::size_t(mix(d.a ^ mix(d.b))); }

std::int64_t KernelNames::find(std::int64_t tensor) const {
  auto it = std::lower_bound(by_tensor.begin(), by_tensor.end(), std::make_pair(tensor, std::uint32_t(0)));
  return it != by_tensor.end() && it->first == tensor ? std::int64_t(it->second) : -1;
}

KernelSummary KernelSummary::of(const PackedKernel& p) {
  KernelSummary s;
  s.kernel = p.kernel;
  s.ctas = p.ctas.size();
  kernel_names(p);
  s.names = p.names_memo;
  return s;
}

const KernelNames& kernel_names(const PackedKernel& kernel) {
  if (!kernel.names_memo) kernel.names_memo = make_names(kernel);
  return *kernel.names_memo;
}

RenamedState rename_state(const PartitionedCaches::State& state, const KernelNames& names) {
  RenamedState out;
  Numbering other(out.others);
  std::int64_t last = -1, last_code = 0;  // held objects of one tensor mostly come in runs
  out.digest = digest_of(state, [&](std::int64_t id) {
    std::int64_t t = tensor_of(id);
    if (t != last) {
      std::int64_t k = names.find(t);
      last = t, last_code = k >= 0 ? 2 * k : 2 * other(t) + 1;
    }
    return canonical(last_code, id);
  });
  return out;
}

RenamedState rename_linked(const PartitionedCaches::State& canonical_state, std::span<const std::int64_t> codes) {
  RenamedState out;
  Numbering other(out.others);  // numbers codes: one per tensor, as rename_state numbers tensors
  std::int64_t last = -1, last_code = 0;
  out.digest = digest_of(canonical_state, [&](std::int64_t id) {
    std::int64_t code = id >> kBlockBits;
    if (code != last) {
      auto k = std::find(codes.begin(), codes.end(), code);
      last = code, last_code = k != codes.end() ? 2 * (k - codes.begin()) : 2 * other(code) + 1;
    }
    return (last_code << kBlockBits) | (id & kBlockMask);  // an op object's block bits are 0
  });
  return out;
}

std::int64_t code_of(std::int64_t tensor, const KernelNames& names, std::span<const std::int64_t> others) {
  std::int64_t k = names.find(tensor);
  if (k >= 0) return 2 * k;
  auto j = std::find(others.begin(), others.end(), tensor);
  return j != others.end() ? 2 * (j - others.begin()) + 1 : -1;
}

std::int64_t tensor_of_code(std::int64_t code, const KernelNames& names, std::span<const std::int64_t> others) {
  return code % 2 == 0 ? names.tensors[std::size_t(code / 2)] : others[std::size_t(code / 2)];
}

bool rename_like(const PartitionedCaches::State& state, const KernelNames& names, const RenamedState& renamed,
                 PartitionedCaches::State& out) {
  out = state;
  std::unordered_map<std::int64_t, std::int64_t> others;
  for (std::size_t j = 0; j < renamed.others.size(); ++j) others.emplace(renamed.others[j], std::int64_t(j));
  bool known = true;
  std::int64_t last = -1, last_code = 0;
  rename_all(out, [&](std::int64_t id) {
    std::int64_t t = tensor_of(id);
    if (t != last) {
      std::int64_t k = names.find(t);
      auto it = others.find(t);
      known = known && (k >= 0 || it != others.end());
      last = t, last_code = k >= 0 ? 2 * k : it != others.end() ? 2 * it->second + 1 : 0;
    }
    return canonical(last_code, id);
  });
  return known;
}

PartitionedCaches::State restore_names(const PartitionedCaches::State& canonical_state, const KernelNames& names,
                                       const std::vector<std::int64_t>& others) {
  PartitionedCaches::State out = canonical_state;
  rename_all(out, [&](std::int64_t id) { return actual(tensor_of_code(id >> kBlockBits, names, others), id); });
  return out;
}

}  // namespace hwsim
