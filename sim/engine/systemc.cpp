#include "sim/engine/systemc.h"

#include <cstdint>
#include <cstdlib>
#include <fmt/format.h>
#include <malloc.h>

#include "sim/error.h"

#if defined(__SANITIZE_ADDRESS__)
#define HWSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HWSIM_ASAN 1
#endif
#endif
#ifdef HWSIM_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace hwsim {

namespace {
#ifdef HWSIM_ASAN
// Stack below the caller's frame that a simulation's frames may have used (SystemC's scheduler and
// the processes it runs on this stack), cleared of AddressSanitizer's marks after sc_start().
constexpr std::size_t kDeadStackBytes = std::size_t(1) << 20;
#endif

// AddressSanitizer cannot follow SystemC's stack switches: it refuses to unpoison the frames an
// exception leaves ("ignoring requested __asan_handle_no_return"), so their redzones stay marked
// after sc_start() returns, and whatever runs there next (the destructors of a failed
// simulation's device) is reported as a stack-buffer-overflow. Those frames are gone: their marks
// are cleared. Nothing without the sanitizer.
void forget_dead_stack() {
#ifdef HWSIM_ASAN
  char here = 0;
  auto below = reinterpret_cast<std::uintptr_t>(&here) - kDeadStackBytes;
  __asan_unpoison_memory_region(reinterpret_cast<void*>(below), kDeadStackBytes);
#endif
}

constexpr int kMallocMmapThreshold = 32 << 20;  // glibc's largest (DEFAULT_MMAP_THRESHOLD_MAX)
constexpr int kMallocTrimThreshold = 1 << 30;

std::exception_ptr& kept_failure() {
  static std::exception_ptr failure;
  return failure;
}
}  // namespace

void require_in_range(double seconds) {
  if (!(seconds <= kMaxSimulatedSeconds))
    workload_error(fmt::format("a simulated delay of {:.3g} s is beyond the engine's range (about 5 hours): check "
                               "the chip's clocks, bandwidths and efficiency parameters, or make the workload smaller",
                               seconds));
}

void fail_simulation(std::exception_ptr failure) {
  if (!kept_failure()) kept_failure() = std::move(failure);
  sc_core::sc_stop();
}

void rethrow_simulation_failure() {
  forget_dead_stack();
  if (auto failure = kept_failure()) {
    kept_failure() = nullptr;
    std::rethrow_exception(failure);
  }
}

void init_systemc() {
  static bool done = false;
  if (done) return;
  done = true;
  // A simulation allocates and frees per-kernel and per-step state by the million: freed memory
  // stays in the process (blocks up to 32 MiB from the heap, not from their own mappings, and no
  // trimming below 1 GiB free), so its pages are not faulted in over and over.
  mallopt(M_MMAP_THRESHOLD, kMallocMmapThreshold);
  mallopt(M_TRIM_THRESHOLD, kMallocTrimThreshold);
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
}

}  // namespace hwsim

// libsystemc references sc_main from its own main(); hwsim has its own main() and starts the
// kernel with sc_start() directly, so this is never called.
int sc_main(int, char*[]) { return 1; }
