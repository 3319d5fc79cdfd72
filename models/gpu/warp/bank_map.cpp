#include "models/gpu/warp/bank_map.h"

#include <algorithm>
#include <bit>
#include <fmt/format.h>
#include <vector>

namespace hwsim::warp {

namespace {

// Wavefronts the lanes' bytes need at the least: banks × bank_bytes bytes per wavefront.
int min_wavefronts(std::uint32_t mask, int bytes, int banks, int bank_bytes) {
  const int lanes = std::popcount(mask);
  return (lanes * bytes + banks * bank_bytes - 1) / (banks * bank_bytes);
}

// The common case: one word per lane, a power-of-two count of at most 64 banks, and no bank asked
// for two different words (conflict free, broadcasts allowed). False when the access is not such.
bool conflict_free(const std::uint64_t* addr, std::uint32_t mask, int bytes, int banks, int bank_bytes,
                   std::uint64_t* words_per_bank, std::uint64_t* requests_per_bank, BankAccess& r) {
  if (bytes > bank_bytes || banks > 64 || (banks & (banks - 1)) != 0 || (bank_bytes & (bank_bytes - 1)) != 0)
    return false;
  const int shift = std::countr_zero(unsigned(bank_bytes));
  const std::uint64_t bank_mask = std::uint64_t(banks) - 1;
  std::uint64_t first[64];
  std::uint64_t used = 0;
  for (std::uint32_t m = mask; m; m &= m - 1) {
    const std::uint64_t w = addr[std::countr_zero(m)] >> shift;
    const int b = int(w & bank_mask);
    if (!(used >> b & 1)) used |= std::uint64_t(1) << b, first[b] = w;
    else if (first[b] != w) return false;
  }
  if (!used) return true;
  for (std::uint64_t u = used; u; u &= u - 1) {
    const int b = std::countr_zero(u);
    if (words_per_bank) ++words_per_bank[b];
    if (requests_per_bank) ++requests_per_bank[b];
  }
  r.worst_bank = std::countr_zero(used);
  r.wavefronts = std::max(1, min_wavefronts(mask, bytes, banks, bank_bytes));
  return true;
}

}  // namespace

BankAccess bank_conflicts(const std::uint64_t* addr, std::uint32_t mask, int bytes, int banks, int bank_bytes,
                          std::uint64_t* words_per_bank, std::uint64_t* requests_per_bank) {
  if (BankAccess r; conflict_free(addr, mask, bytes, banks, bank_bytes, words_per_bank, requests_per_bank, r)) return r;
  // the distinct words (at most 32 lanes x 4 words), found with a small open-addressing set, and
  // how many of them each bank holds
  constexpr int kSlots = 256;  // a power of two, at least twice the words
  std::uint64_t slot_word[kSlots];
  std::uint8_t slot_used[kSlots] = {};
  std::vector<int> big(banks > 64 ? std::size_t(banks) : 0, 0);
  int small[64];
  int* count = banks > 64 ? big.data() : small;
  std::vector<std::uint8_t> used_big(banks > 64 ? std::size_t(banks) : 0, 0);
  std::uint64_t used = 0;  // banks <= 64: bit b = bank b holds a word
  int n = 0;
  const int per_lane = std::max(1, bytes / bank_bytes);
  const bool pow2 = (banks & (banks - 1)) == 0 && (bank_bytes & (bank_bytes - 1)) == 0;
  const int word_shift = std::countr_zero(unsigned(bank_bytes));
  const std::uint64_t bank_mask = std::uint64_t(banks) - 1;
  for (std::uint32_t m = mask; m; m &= m - 1) {
    const int lane = std::countr_zero(m);
    for (int k = 0; k < per_lane; ++k) {
      const std::uint64_t w = (pow2 ? addr[lane] >> word_shift : addr[lane] / std::uint64_t(bank_bytes)) + std::uint64_t(k);
      std::uint64_t h = (w * 0x9e3779b97f4a7c15ull) >> 56;
      while (slot_used[h] && slot_word[h] != w) h = (h + 1) & (kSlots - 1);
      if (slot_used[h]) continue;  // the same word: one broadcast
      slot_used[h] = 1, slot_word[h] = w, ++n;
      const int b = int(pow2 ? w & bank_mask : w % std::uint64_t(banks));
      bool first = banks <= 64 ? !(used >> b & 1) : !used_big[std::size_t(b)];
      if (first) {
        count[b] = 0;
        if (banks <= 64) used |= std::uint64_t(1) << b;
        else used_big[std::size_t(b)] = 1;
      }
      ++count[b];
    }
  }
  BankAccess r;
  if (n == 0) return r;
  int worst = 0;
  auto tally = [&](int b) {
    if (words_per_bank) words_per_bank[b] += std::uint64_t(count[b]);
    if (requests_per_bank) ++requests_per_bank[b];
    if (count[b] > worst) worst = count[b], r.worst_bank = b;  // the lowest-numbered of the most loaded
  };
  if (banks <= 64) {
    for (std::uint64_t u = used; u; u &= u - 1) tally(std::countr_zero(u));
  } else {
    for (int b = 0; b < banks; ++b)
      if (used_big[std::size_t(b)]) tally(b);
  }
  r.wavefronts = std::max(worst, min_wavefronts(mask, bytes, banks, bank_bytes));
  return r;
}

std::vector<std::uint64_t> bank_words(const std::uint64_t* addr, std::uint32_t mask, int bytes, int banks, int bank_bytes) {
  std::vector<std::uint64_t> out(std::size_t(std::max(banks, 0)), 0);
  if (banks > 0 && bank_bytes > 0) bank_conflicts(addr, mask, bytes, banks, bank_bytes, out.data());
  return out;
}

std::string bank_map_text(const std::uint64_t* addr, std::uint32_t mask, int banks, int bank_bytes) {
  std::string out;
  for (int lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1)) continue;
    out += fmt::format("    lane {:2}: byte {:#07x} -> bank {:2}\n", lane, addr[lane],
                       (addr[lane] / std::uint64_t(bank_bytes)) % std::uint64_t(banks));
  }
  return out;
}

}  // namespace hwsim::warp
