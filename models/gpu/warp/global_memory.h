#pragma once
// Device memory of a kernel run: named buffers at fixed addresses, with real contents. A buffer's
// initial contents are a pure function of the element index (zeros, ones, iota, random with a seed,
// sorted, chase), generated on read; a 4 KiB page is materialised only when first written, so a
// 1 GiB streaming buffer costs no host memory. Accesses outside every buffer return nullopt; the
// caller reports kernel, instruction, lane and address.
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/gpu/warp/isa.h"

namespace hwsim::warp {

// fill: every element Buffer::fill (PTX launches' fill:V).
enum class Init : std::uint8_t { zeros, ones, iota, random, sorted, chase, fill };
const char* init_name(Init i);
std::optional<Init> parse_init(const std::string& s);

// A buffer's pages, two levels deep: a directory of kPagesPerDir page slots is made when a page in
// it is first materialised, so the table of an untouched 4 TB buffer is a few MB, not the 8 GB a
// slot per page took.
class PageTable {
 public:
  using Page = std::unique_ptr<std::uint8_t[]>;
  static constexpr std::uint64_t kPagesPerDir = 4096;
  void resize(std::uint64_t pages) {
    pages_ = pages;
    dirs_.clear();
    dirs_.resize((pages + kPagesPerDir - 1) / kPagesPerDir);
  }
  std::uint64_t size() const { return pages_; }
  // Page `p`'s bytes, or null when it is not materialised.
  const std::uint8_t* find(std::uint64_t p) const {
    const auto& d = dirs_[p / kPagesPerDir];
    return d ? (*d)[p % kPagesPerDir].get() : nullptr;
  }
  Page& slot(std::uint64_t p) {  // page `p`'s slot, its directory made if needed
    auto& d = dirs_[p / kPagesPerDir];
    if (!d) d = std::make_unique<Dir>();
    return (*d)[p % kPagesPerDir];
  }
  void clear() {
    for (auto& d : dirs_) d.reset();
  }
  std::uint64_t directories() const { return dirs_.size(); }

 private:
  using Dir = std::array<Page, kPagesPerDir>;
  std::vector<std::unique_ptr<Dir>> dirs_;
  std::uint64_t pages_ = 0;
};

struct Buffer {
  std::string name;
  Type type = Type::f32;
  std::uint64_t count = 0;     // elements
  std::uint64_t base = 0;      // device address
  Init init = Init::zeros;
  std::uint64_t seed = 1;
  double fill = 0;             // Init::fill's value
  std::uint64_t bytes() const { return count * std::uint64_t(type_bytes(type)); }
  PageTable pages;   // materialised pages (none = generated)
  std::uint32_t generated_word(std::uint64_t word_index) const;  // 4-byte word of initial contents
  std::uint64_t generated_element(std::uint64_t i) const;         // element i's initial raw bits
};

class GlobalMemory {
 public:
  static constexpr std::uint64_t kPage = 4096;
  // Places a buffer (256-byte aligned, after the previous one) and returns its base address.
  std::uint64_t add(Buffer b);
  // Finds the buffer holding [addr, addr + n); nullptr when out of bounds.
  Buffer* find(std::uint64_t addr, std::uint64_t n) {
    if (last_ && addr >= last_->base && addr + n <= last_->base + last_->bytes()) return last_;
    return find_other(addr, n);
  }
  const Buffer* by_name(const std::string& name) const;
  const std::vector<std::unique_ptr<Buffer>>& buffers() const { return buffers_; }

  // Reads / writes a naturally aligned 4- or 8-byte value inside `b`.
  std::uint64_t read(Buffer& b, std::uint64_t addr, int bytes) const {
    std::uint64_t off = addr - b.base;
    std::uint64_t v = read_word(b, off);
    if (bytes == 8) v |= std::uint64_t(read_word(b, off + 4)) << 32;
    return v;
  }
  void write(Buffer& b, std::uint64_t addr, int bytes, std::uint64_t value) {
    std::uint64_t off = addr - b.base;
    write_word(b, off, std::uint32_t(value));
    if (bytes == 8) write_word(b, off + 4, std::uint32_t(value >> 32));
  }
  // Reads / writes `n` bytes (1, 2, 4, 8, 16 or 32, naturally aligned) inside `b`.
  void read_bytes(Buffer& b, std::uint64_t addr, int n, std::uint8_t* out) const {
    std::uint64_t off = addr - b.base;
    if (n < 4) {
      std::uint32_t v = read_word(b, off & ~3ull) >> (8 * (off & 3));
      std::memcpy(out, &v, std::size_t(n));
      return;
    }
    for (int k = 0; k < n; k += 4) {
      std::uint32_t v = read_word(b, off + std::uint64_t(k));
      std::memcpy(out + k, &v, 4);
    }
  }
  void write_bytes(Buffer& b, std::uint64_t addr, int n, const std::uint8_t* in) {
    std::uint64_t off = addr - b.base;
    if (n < 4) {
      std::uint32_t v = read_word(b, off & ~3ull), part = 0;
      std::memcpy(&part, in, std::size_t(n));
      const unsigned shift = unsigned(8 * (off & 3));
      const std::uint32_t m = (n == 1 ? 0xffu : 0xffffu) << shift;
      write_word(b, off & ~3ull, (v & ~m) | (part << shift));
      return;
    }
    for (int k = 0; k < n; k += 4) {
      std::uint32_t v;
      std::memcpy(&v, in + k, 4);
      write_word(b, off + std::uint64_t(k), v);
    }
  }
  // Every buffer back to its initial contents (what a launch wrote is dropped; pages regenerate).
  void discard_writes();
  // Element i of a buffer as text ("%g" for floats), for --dump.
  std::string element_text(const Buffer& b, std::uint64_t i) const;
  double element_value(const Buffer& b, std::uint64_t i) const;

 private:
  // A page of a buffer up to this size is materialised when first read, so its generated contents
  // are computed once; a larger buffer (a stream) keeps generating on read and costs no memory.
  static constexpr std::uint64_t kMaterialiseOnReadBytes = 16ull << 20;
  std::uint32_t read_word(Buffer& b, std::uint64_t off) const {
    const std::uint8_t* page = b.pages.find(off / kPage);
    if (!page) {
      if (b.init == Init::zeros) return 0;
      if (b.bytes() > kMaterialiseOnReadBytes) return b.generated_word(off / 4);
      page = materialise(b, off);
    }
    std::uint32_t v;
    std::memcpy(&v, page + off % kPage, 4);
    return v;
  }
  std::uint32_t peek_word(const Buffer& b, std::uint64_t off) const {  // without materialising
    const std::uint8_t* page = b.pages.find(off / kPage);
    if (!page) return b.init == Init::zeros ? 0 : b.generated_word(off / 4);
    std::uint32_t v;
    std::memcpy(&v, page + off % kPage, 4);
    return v;
  }
  void write_word(Buffer& b, std::uint64_t off, std::uint32_t v) {
    auto& page = b.pages.slot(off / kPage);
    if (!page) materialise(b, off);
    std::memcpy(page.get() + off % kPage, &v, 4);
  }
  // The page holding `off`, made with its generated contents; returns its bytes.
  static std::uint8_t* materialise(Buffer& b, std::uint64_t off);
  Buffer* find_other(std::uint64_t addr, std::uint64_t n);
  std::vector<std::unique_ptr<Buffer>> buffers_;
  std::uint64_t next_base_ = 0x10000000;
  Buffer* last_ = nullptr;
};

}  // namespace hwsim::warp
