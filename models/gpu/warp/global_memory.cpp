#include "models/gpu/warp/global_memory.h"

#include <bit>
#include <cstring>
#include <fmt/format.h>

#include "models/gpu/warp/execute.h"
#include "sim/memory_budget.h"

namespace hwsim::warp {
namespace {

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::uint64_t inverse_odd(std::uint64_t m) {
  std::uint64_t inv = m;
  for (int i = 0; i < 6; ++i) inv *= 2 - m * inv;
  return inv;
}

// A seeded bijection on [0, 2^k): the order in which the chase visits its 128-byte slots.
struct SlotPermutation {
  int k;
  std::uint64_t mask, m1, m2, m1i, m2i;
  int s;
  SlotPermutation(int bits, std::uint64_t seed) : k(bits) {
    mask = k >= 64 ? ~0ull : (1ull << k) - 1;
    m1 = splitmix(seed) | 1;
    m2 = splitmix(seed + 1) | 1;
    m1i = inverse_odd(m1);
    m2i = inverse_odd(m2);
    s = (k + 1) / 2;
  }
  std::uint64_t xs(std::uint64_t x) const { return s > 0 ? (x ^ (x >> s)) & mask : x; }
  std::uint64_t fwd(std::uint64_t x) const { return (m2 * xs((m1 * xs(x)) & mask)) & mask; }
  std::uint64_t inv(std::uint64_t y) const { return xs((m1i * xs((m2i * y) & mask)) & mask); }
};

}  // namespace

const char* init_name(Init i) {
  static const char* names[] = {"zeros", "ones", "iota", "random", "sorted", "chase", "fill"};
  return names[int(i)];
}

std::optional<Init> parse_init(const std::string& s) {
  for (int i = 0; i <= int(Init::fill); ++i)
    if (s == init_name(Init(i))) return Init(i);
  return std::nullopt;
}

std::uint64_t Buffer::generated_element(std::uint64_t i) const {
  const int eb = type_bytes(type);
  auto from_double = [&](double v) -> std::uint64_t {
    switch (type) {
      case Type::f32: return std::bit_cast<std::uint32_t>(float(v));
      case Type::f64: return std::bit_cast<std::uint64_t>(v);
      case Type::f16: return float_to_half(float(v));
      case Type::bf16: return float_to_bf16(float(v));
      case Type::s32: case Type::s16: case Type::s8: return std::uint64_t(std::int64_t(v));
      case Type::s64: return std::uint64_t(std::int64_t(v));
      default: return std::uint64_t(v);
    }
  };
  const bool floating = type == Type::f32 || type == Type::f64 || type == Type::f16 || type == Type::bf16;
  std::uint64_t bits = 0;
  switch (init) {
    case Init::zeros: bits = 0; break;
    case Init::ones: bits = from_double(1); break;
    case Init::fill: bits = from_double(fill); break;
    case Init::iota: bits = from_double(double(i)); break;
    case Init::random: {
      std::uint64_t r = splitmix(seed * 0x100000001b3ull ^ splitmix(i));
      if (floating) bits = from_double(double(r >> 11) * 0x1.0p-53 * 2.0 - 1.0);  // [-1, 1)
      else bits = from_double(double(r % 1024));                                   // [0, 1024), wrapped by narrow types
      break;
    }
    case Init::sorted:
      bits = floating ? from_double(-1.0 + 2.0 * (double(i) + 0.5) / double(count)) : from_double(double(i));
      break;
    case Init::chase: {
      // word index of the next 128-byte slot at every slot start (as microbench.cu: chase), 0 elsewhere
      std::uint64_t per_slot = 128 / std::uint64_t(eb);
      std::uint64_t slots = count / per_slot;
      if (i % per_slot != 0 || slots <= 1) { bits = 0; break; }
      int k = std::bit_width(slots) - 1;
      SlotPermutation perm(k, seed);
      std::uint64_t slot = i / per_slot;
      std::uint64_t pos = perm.inv(slot);
      std::uint64_t next = perm.fwd((pos + 1) & perm.mask);
      bits = from_double(double(next * per_slot));
      break;
    }
  }
  return eb == 8 ? bits : bits & ((std::uint64_t(1) << (8 * eb)) - 1);
}

std::uint32_t Buffer::generated_word(std::uint64_t w) const {
  const int eb = type_bytes(type);
  if (eb == 8) {
    std::uint64_t bits = generated_element(w / 2);
    return std::uint32_t(w % 2 ? bits >> 32 : bits);
  }
  if (eb == 4) return std::uint32_t(generated_element(w));
  std::uint32_t word = 0;  // narrow elements: the word packs 4 / eb of them (past the end: zero)
  const std::uint64_t per = 4 / std::uint64_t(eb);
  for (std::uint64_t k = 0; k < per && w * per + k < count; ++k)
    word |= std::uint32_t(generated_element(w * per + k)) << (8 * eb * int(k));
  return word;
}

std::uint64_t GlobalMemory::add(Buffer b) {
  b.base = next_base_;
  next_base_ = (b.base + std::max<std::uint64_t>(b.bytes(), 1) + 4095) / 4096 * 4096 + 4096;  // guard gap
  const std::uint64_t pages = (b.bytes() + kPage - 1) / kPage;
  // The table's directories exist whether written or not (a buffer of 10^12 elements: 2 MB of them).
  charge_memory(double((pages + PageTable::kPagesPerDir - 1) / PageTable::kPagesPerDir) * sizeof(void*),
                fmt::format("buffer {}'s page table ({} elements)", b.name, b.count).c_str());
  b.pages.resize(pages);
  buffers_.push_back(std::make_unique<Buffer>(std::move(b)));
  return buffers_.back()->base;
}

void GlobalMemory::discard_writes() {
  for (auto& b : buffers_)
    b->pages.clear();
}

Buffer* GlobalMemory::find_other(std::uint64_t addr, std::uint64_t n) {
  for (auto& b : buffers_)
    if (addr >= b->base && addr + n <= b->base + b->bytes()) return last_ = b.get();
  return nullptr;
}

const Buffer* GlobalMemory::by_name(const std::string& name) const {
  for (auto& b : buffers_)
    if (b->name == name) return b.get();
  return nullptr;
}

std::uint8_t* GlobalMemory::materialise(Buffer& b, std::uint64_t off) {
  auto& page = b.pages.slot(off / kPage);
  page = std::make_unique<std::uint8_t[]>(kPage);  // zero-filled
  std::uint64_t first = off / kPage * kPage;
  if (b.init != Init::zeros)
    for (std::uint64_t o = 0; o < kPage && first + o < b.bytes(); o += 4) {
      std::uint32_t g = b.generated_word((first + o) / 4);
      std::memcpy(page.get() + o, &g, 4);
    }
  return page.get();
}

double GlobalMemory::element_value(const Buffer& b, std::uint64_t i) const {
  const std::uint64_t eb = std::uint64_t(type_bytes(b.type)), off = i * eb;
  std::uint64_t v = peek_word(b, off & ~3ull);
  if (eb == 8) v |= std::uint64_t(peek_word(b, off + 4)) << 32;
  else if (eb < 4) v = (v >> (8 * (off & 3))) & ((1u << (8 * eb)) - 1);
  switch (b.type) {
    case Type::f32: return std::bit_cast<float>(std::uint32_t(v));
    case Type::f64: return std::bit_cast<double>(v);
    case Type::f16: return half_to_float(std::uint16_t(v));
    case Type::bf16: return std::bit_cast<float>(std::uint32_t(v) << 16);
    case Type::s32: return std::int32_t(std::uint32_t(v));
    case Type::s16: return std::int16_t(v);
    case Type::s8: return std::int8_t(v);
    case Type::s64: return double(std::int64_t(v));
    default: return double(v);
  }
}

std::string GlobalMemory::element_text(const Buffer& b, std::uint64_t i) const {
  double v = element_value(b, i);
  if (b.type == Type::f32 || b.type == Type::f16 || b.type == Type::bf16) return fmt::format("{:.9g}", v);
  if (b.type == Type::f64) return fmt::format("{:.17g}", v);
  return fmt::format("{:.0f}", v);
}

}  // namespace hwsim::warp
