#pragma once
// The memory below the warp model's L2 as a TLM-2.0 initiator (gpu.warp.dram_model = "tlm"): an
// external SystemC DRAM model (DRAMSys, a Ramulator wrapper, tlm_example_target.h) binds its
// target socket to `socket`, and the embedding program hands this module to the launch
// (LaunchOptions::dram). Each DRAM access is one blocking b_transport of a tlm_generic_payload:
//  - an L2 miss: TLM_READ_COMMAND of gpu.warp.dram_access_bytes (64 B on H100: two sectors) at
//    the granule's device address;
//  - stored sectors written through the L2: TLM_WRITE_COMMAND, one per run of adjacent sectors of
//    a line (a full 128-byte line of a coalesced store: one write of 128 B) at their address.
// Loosely timed, temporally decoupled: the warp model runs a whole kernel at one SystemC time
// (sc_time_stamp() at the kernel's start, the base) and times each access at the SM cycle its
// warp issues it. The delay handed to b_transport is the access's local time offset: base + its
// cycle / clock - sc_time_stamp(). The target adds what the access takes (its latency, queueing
// behind earlier accesses, bank and row effects, bus occupancy) to that delay and returns; that
// addition, in SM cycles, is the read's latency: the data is in the L2 at issue + latency.
// Bandwidth and queueing come only from the target: the built-in bandwidth server, rows,
// turnarounds and queueing terms are not used. Accesses arrive in nearly time order (SMs are
// stepped in time order; one instruction's lines at the cycles the L1 tag stage passes them on),
// so a target that keeps per-bank or per-channel "busy until" times from the incoming delays sees
// its queues as the kernel loads them. Writes are posted: their returned delay is not waited for,
// but the target's state (a busy bus) delays later reads.
// wait(): a target should not call it (loosely timed: annotate instead). The warp model always
// runs in an SC_THREAD under run_kernel (warp_gpu_host.cpp), so a target that does wait()
// still works there: the SystemC time that passes inside b_transport counts into that access's
// latency, and later accesses' offsets are taken from the new time (never negative). Called
// outside a thread (simulate_kernel from a test's sc_main), wait() is SystemC's error.
// The payload's data pointer is a scratch buffer of `length` bytes (zeros): the kernel's values
// stay in the warp model (global_memory.h, executed at issue); data a target writes there on a
// read is ignored. A target that answers with an error response is one line (a workload error).
#include <cstdint>
#include <vector>

#include "models/gpu/warp/dram_model.h"
#include "sim/engine/systemc.h"

#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

namespace hwsim::warp {

class TlmDram : public sc_core::sc_module, public DramModel {
 public:
  tlm_utils::simple_initiator_socket<TlmDram> socket;

  explicit TlmDram(sc_core::sc_module_name name);
  void start_kernel(const WarpParams& p) override;
  std::int64_t read(double t, std::uint64_t addr, int bytes) override;
  void write(double t, std::uint64_t line_addr, std::uint32_t sectors, int sector_bytes) override;
  double bytes() const override { return double(read_bytes_ + write_bytes_); }

  // This kernel's transactions (since start_kernel).
  std::uint64_t reads() const { return reads_; }
  std::uint64_t writes() const { return writes_; }
  std::uint64_t read_bytes() const { return read_bytes_; }
  std::uint64_t write_bytes() const { return write_bytes_; }
  // The mean latency the target annotated on reads, in SM cycles.
  double mean_read_latency() const { return reads_ ? read_latency_sum_ / double(reads_) : 0; }

 private:
  // One b_transport of `bytes` at `addr` at SM cycle t; returns what the target added, in cycles.
  double transport(tlm::tlm_command command, double t, std::uint64_t addr, int bytes);
  double cycle_seconds_ = 0;
  sc_core::sc_time base_;
  tlm::tlm_generic_payload trans_;
  std::vector<unsigned char> data_;
  std::uint64_t reads_ = 0, writes_ = 0, read_bytes_ = 0, write_bytes_ = 0;
  double read_latency_sum_ = 0;
};

}  // namespace hwsim::warp
