#include "models/gpu/warp/bank_map.h"

#include <algorithm>
#include <bit>
#include <fmt/format.h>
#include <vector>

namespace hwsim::warp {

BankAccess bank_conflicts(const std::uint64_t* addr, std::uint32_t mask, int bytes, int banks, int bank_bytes,
                          std::uint64_t* words_per_bank, std::uint64_t* requests_per_bank) {
  // distinct word addresses per bank (at most 32 lanes × 4 words: a small linear set is fastest)
  std::uint64_t words[128];
  int n = 0;
  int per_lane = std::max(1, bytes / bank_bytes);
  for (std::uint32_t m = mask; m; m &= m - 1) {
    int lane = std::countr_zero(m);
    for (int k = 0; k < per_lane; ++k) words[n++] = addr[lane] / std::uint64_t(bank_bytes) + std::uint64_t(k);
  }
  std::sort(words, words + n);
  n = int(std::unique(words, words + n) - words);  // same word: one broadcast
  BankAccess r;
  if (n == 0) return r;
  int small[64] = {};
  std::vector<int> big(banks > 64 ? std::size_t(banks) : 0, 0);
  int* count_base = banks > 64 ? big.data() : small;
  auto count = [&](std::size_t b) -> int& { return count_base[b]; };
  int worst = 0;
  for (int i = 0; i < n; ++i) {
    int b = int(words[i] % std::uint64_t(banks));
    if (words_per_bank) ++words_per_bank[b];
    if (requests_per_bank && count(std::size_t(b)) == 0) ++requests_per_bank[b];
    if (++count(std::size_t(b)) > worst) { worst = count(std::size_t(b)); r.worst_bank = b; }
  }
  int lanes = std::popcount(mask);
  int min_wavefronts = (lanes * bytes + banks * bank_bytes - 1) / (banks * bank_bytes);
  r.wavefronts = std::max(worst, min_wavefronts);
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
