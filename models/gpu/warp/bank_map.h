#pragma once
// Shared-memory bank mapping: which bank each lane's word falls in and how many wavefronts
// (conflict degree) a warp's access needs. Lanes reading the same word are served by one
// broadcast; distinct words in one bank are serialised. A wide access (8 or 16 bytes per lane)
// needs at least bytes/(banks × bank_bytes) wavefronts.
#include <cstdint>
#include <string>
#include <vector>

namespace hwsim::warp {

struct BankAccess {
  int wavefronts = 0;        // 1 = conflict free
  int worst_bank = 0;        // the lowest-numbered bank with the most distinct words
};

// addr[lane] for lanes in `mask`; `bytes` per lane (4, 8 or 16). The bank map's counters (banks
// entries each, or null): `words_per_bank` gets each bank's distinct words in this access added
// (a bank holding w distinct words serialises the access w ways), `requests_per_bank` one for
// each bank the access uses.
BankAccess bank_conflicts(const std::uint64_t* addr, std::uint32_t mask, int bytes, int banks, int bank_bytes,
                          std::uint64_t* words_per_bank = nullptr, std::uint64_t* requests_per_bank = nullptr);

// Distinct words per bank (`banks` entries) of one warp's access: the bank map of that warp.
std::vector<std::uint64_t> bank_words(const std::uint64_t* addr, std::uint32_t mask, int bytes, int banks, int bank_bytes);

// "lane 0: 0x0000 -> bank 0" lines for one warp's access, for the teaching report.
std::string bank_map_text(const std::uint64_t* addr, std::uint32_t mask, int banks, int bank_bytes);

}  // namespace hwsim::warp
