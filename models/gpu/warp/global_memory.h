#pragma once
// Device memory of a kernel run: named buffers at fixed addresses, with real contents. A buffer's
// initial contents are a pure function of the element index (zeros, ones, iota, random with a seed,
// sorted, chase), generated on read; a 4 KiB page is materialised only when first written, so a
// 1 GiB streaming buffer costs no host memory. Accesses outside every buffer return nullopt; the
// caller reports kernel, instruction, lane and address.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/gpu/warp/isa.h"

namespace hwsim::warp {

enum class Init : std::uint8_t { zeros, ones, iota, random, sorted, chase };
const char* init_name(Init i);
std::optional<Init> parse_init(const std::string& s);

struct Buffer {
  std::string name;
  Type type = Type::f32;
  std::uint64_t count = 0;     // elements
  std::uint64_t base = 0;      // device address
  Init init = Init::zeros;
  std::uint64_t seed = 1;
  std::uint64_t bytes() const { return count * std::uint64_t(type_bytes(type)); }
  std::vector<std::unique_ptr<std::uint8_t[]>> pages;   // materialised pages (null = generated)
  std::uint32_t generated_word(std::uint64_t word_index) const;  // 4-byte word of initial contents
};

class GlobalMemory {
 public:
  static constexpr std::uint64_t kPage = 4096;
  // Places a buffer (256-byte aligned, after the previous one) and returns its base address.
  std::uint64_t add(Buffer b);
  // Finds the buffer holding [addr, addr + n); nullptr when out of bounds.
  Buffer* find(std::uint64_t addr, std::uint64_t n);
  const Buffer* by_name(const std::string& name) const;
  const std::vector<std::unique_ptr<Buffer>>& buffers() const { return buffers_; }

  // Reads / writes a naturally aligned 4- or 8-byte value inside `b`.
  std::uint64_t read(Buffer& b, std::uint64_t addr, int bytes) const;
  void write(Buffer& b, std::uint64_t addr, int bytes, std::uint64_t value);
  // Element i of a buffer as text ("%g" for floats), for --dump.
  std::string element_text(const Buffer& b, std::uint64_t i) const;
  double element_value(const Buffer& b, std::uint64_t i) const;

 private:
  std::uint32_t read_word(const Buffer& b, std::uint64_t offset) const;
  void write_word(Buffer& b, std::uint64_t offset, std::uint32_t v);
  std::vector<std::unique_ptr<Buffer>> buffers_;
  std::uint64_t next_base_ = 0x10000000;
  Buffer* last_ = nullptr;
};

}  // namespace hwsim::warp
