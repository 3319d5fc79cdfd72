// The hwsim executable's heap, set up before any library's constructor runs (glibc calls an
// executable's .preinit_array first). Nothing here changes a result; it changes what a page of
// memory costs. On the virtual machines hwsim is built and tested on a page fault costs ~13 us,
// and a run faults thousands of 4 KiB pages: SystemC's own static constructors allocate and clear
// 3 MiB (~770 faults, more than half of `hwsim --version`), and a decode step's small objects
// fault in ~2,000 more. So the heap's first kTopPad bytes are marked for transparent huge pages
// (2 MiB per fault) where the kernel grants them on request (/sys/kernel/mm/transparent_hugepage/
// enabled = madvise or always; with "never" the call is a no-op), and allocations up to
// kMmapThreshold come from that heap rather than from a mapping of their own. Measured on the
// 2-core build machine: `hwsim --version` 23 -> 13 ms of CPU, decode_llama8b 61 -> 29 ms; the
// thresholds alone, without the huge pages, gained nothing. Under the sanitizers (which own
// malloc) nothing is done.
#include <cstdint>
#include <cstdlib>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(HWSIM_SANITIZED) && defined(__GLIBC__)
namespace {

constexpr int kMmapThreshold = 64 << 20;  // bytes: larger blocks are mapped on their own
constexpr int kTopPad = 16 << 20;         // bytes the heap grows by beyond a request (8: slower, 32: no gain)
constexpr std::uintptr_t kHugePage = 2u << 20;

void set_up_heap(int, char**, char**) {
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  mallopt(M_TOP_PAD, kTopPad);
  void* first = std::malloc(1);  // grows the heap by kTopPad, untouched so far
  const auto lo = (reinterpret_cast<std::uintptr_t>(first) + kHugePage - 1) & ~(kHugePage - 1);
  const auto hi = reinterpret_cast<std::uintptr_t>(sbrk(0)) & ~(kHugePage - 1);
  if (first != nullptr && hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
  std::free(first);
}

}  // namespace

__attribute__((section(".preinit_array"), used)) static void (*const hwsim_set_up_heap)(int, char**, char**) =
    set_up_heap;
#endif
