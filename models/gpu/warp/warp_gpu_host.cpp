// The warp model's SystemC host: one module whose thread runs the event-driven SM loop
// (simulate_kernel, which skips idle cycles itself) and then advances SystemC time by the
// kernel's duration, so the kernel boundary is in sc_time like the other models.
#include <exception>
#include <systemc>

#include "models/gpu/warp/kernel_launch.h"
#include "sim/engine/systemc.h"

namespace hwsim::warp {
namespace {

class WarpGpuHost : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(WarpGpuHost);
  WarpGpuHost(sc_core::sc_module_name name, const WarpParams& p, Program program, const LaunchOptions& o)
      : sc_module(name), p_(p), program_(std::move(program)), options_(o) {
    SC_THREAD(run);
  }
  std::unique_ptr<KernelRun> result;
  std::exception_ptr error;

 private:
  void run() {
    try {
      result = simulate_kernel(p_, std::move(program_), options_);
      wait(to_sc_time(double(result->stats.cycles) / p_.chip.clock_hz));
    } catch (...) {
      error = std::current_exception();
    }
  }
  const WarpParams& p_;
  Program program_;
  LaunchOptions options_;
};

}  // namespace

std::unique_ptr<KernelRun> run_kernel(const WarpParams& p, Program program, const LaunchOptions& options) {
  init_systemc();
  auto host = std::make_unique<WarpGpuHost>("warp_gpu", p, std::move(program), options);
  sc_core::sc_start();
  if (host->error) std::rethrow_exception(host->error);
  return std::move(host->result);
}

}  // namespace hwsim::warp
