#pragma once
// The memory below the warp model's L2: what an L2 miss and a write-through of stored sectors
// cost. MemorySystem (memory_system.h) asks it; two implementations:
//  - BuiltinDram (builtin_dram.h), the default (gpu.warp.dram_model = "builtin"): the calibrated
//    HBM model (latency and its spread, a bandwidth server, rows and banks, read/write turnarounds,
//    write drains, controller queueing);
//  - TlmDram (tlm_dram.h, gpu.warp.dram_model = "tlm"): a TLM-2.0 initiator socket, one blocking
//    b_transport per access, loosely timed, to an external SystemC DRAM model the embedding
//    program binds (LaunchOptions::dram).
// Times are SM cycles since the kernel's start, as the rest of the warp model keeps them. The warp
// model is event driven and times an access when its warp issues it (SMs are stepped in time
// order, so accesses arrive in nearly time order, never per cycle).
#include <cstdint>

namespace hwsim::warp {

struct WarpParams;

class DramModel {
 public:
  virtual ~DramModel() = default;
  // Called once by the launch whose memory system takes this model, before its first access.
  virtual void start_kernel(const WarpParams& p) { (void)p; }
  // A read of `bytes` (gpu.warp.dram_access_bytes, one access granule) at device address `addr`,
  // which the L2 asks for at cycle t: the cycle its data is in the L2 (at least t).
  virtual std::int64_t read(double t, std::uint64_t addr, int bytes) = 0;
  // The sectors `sectors` (bit s: the sector at line_addr + s · sector_bytes) of a line, written
  // through the L2 at cycle t. Posted: nothing in the warp model waits for it, but it occupies the
  // device memory (later reads queue behind it in a model that counts that).
  virtual void write(double t, std::uint64_t line_addr, std::uint32_t sectors, int sector_bytes) = 0;
  // Bytes the device memory moved so far (the built-in model: its server's bytes, row and
  // turnaround costs included).
  virtual double bytes() const = 0;
};

}  // namespace hwsim::warp
