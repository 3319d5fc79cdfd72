#pragma once
// An example DRAM for the warp model's TLM-2.0 socket (tlm_dram.h), loosely timed: what an
// external SystemC DRAM model bound in place of the built-in one looks like, small enough to read.
// Banks with an open row each (address → row = addr / row_bytes, bank = a hash of the row), one
// data bus of a fixed bandwidth, a fixed controller latency:
//   arrival  = sc_time_stamp() + the delay handed in (the access's time, temporally decoupled)
//   start    = max(arrival, the bank's ready time)
//   open     = start + (row hit ? 0 : t_rp + t_rcd)            (a miss precharges and activates)
//   data     = open + t_cas; the bank takes its next column access at open + t_ccd
//   bus      = max(data, bus free) .. + bytes / bandwidth      (the bus is free after that)
//   done     = bus end + controller latency
// and it returns with delay = done - sc_time_stamp() (no wait(): loosely timed). Writes take the
// same path (they occupy bank and bus; the warp model does not wait for them). It can keep a
// record of every transaction (address, read/write, length, arrival, delay added).
#include <cstdint>
#include <vector>

#include "sim/engine/systemc.h"

#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace hwsim::warp {

struct ExampleDramTiming {
  double controller = 120e-9;   // s: front end and return path, every access
  double t_cas = 15e-9, t_rcd = 15e-9, t_rp = 15e-9;  // s: column access / activate / precharge
  double t_ccd = 2e-9;          // s: between column accesses of one bank (they pipeline)
  double bandwidth = 3.35e12;   // B/s on the data bus
  int banks = 512;
  std::uint64_t row_bytes = 1024;
};

class ExampleDramTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ExampleDramTarget> socket;

  struct Record {
    bool write = false;
    std::uint64_t address = 0;
    unsigned length = 0;
    double arrival = 0;  // s (sc_time_stamp() + delay handed in)
    double added = 0;    // s the target added to the delay
    bool row_hit = false;
  };

  ExampleDramTarget(sc_core::sc_module_name name, ExampleDramTiming timing = {});
  bool keep_records = false;
  const std::vector<Record>& records() const { return records_; }
  std::uint64_t reads = 0, writes = 0, row_hits = 0, row_misses = 0, bytes = 0;
  // Forgets bank, row and bus state and the counts (a new kernel on an idle memory).
  void reset();

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  ExampleDramTiming timing_;
  std::vector<std::uint64_t> open_row_;  // row + 1 (0: closed)
  std::vector<double> bank_ready_;
  double bus_free_ = 0;
  std::vector<Record> records_;
};

}  // namespace hwsim::warp
