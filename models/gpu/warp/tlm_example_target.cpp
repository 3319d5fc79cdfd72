#include "models/gpu/warp/tlm_example_target.h"

#include <algorithm>

namespace hwsim::warp {

ExampleDramTarget::ExampleDramTarget(sc_core::sc_module_name name, ExampleDramTiming timing)
    : sc_module(name), socket("socket"), timing_(timing) {
  socket.register_b_transport(this, &ExampleDramTarget::b_transport);
  reset();
}

void ExampleDramTarget::reset() {
  open_row_.assign(std::size_t(std::max(1, timing_.banks)), 0);
  bank_ready_.assign(open_row_.size(), 0.0);
  bus_free_ = 0;
  reads = writes = row_hits = row_misses = bytes = 0;
  records_.clear();
}

void ExampleDramTarget::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const double now = sim_now();
  const double arrival = now + seconds_of(delay);
  const std::uint64_t row = trans.get_address() / std::max<std::uint64_t>(1, timing_.row_bytes);
  const std::size_t bank = std::size_t((row * 0x9e3779b97f4a7c15ull) >> 32) % open_row_.size();
  const double start = std::max(arrival, bank_ready_[bank]);
  const bool hit = open_row_[bank] == row + 1;
  open_row_[bank] = row + 1;
  const double open = start + (hit ? 0.0 : timing_.t_rp + timing_.t_rcd);
  const double data = open + timing_.t_cas;
  bank_ready_[bank] = open + timing_.t_ccd;
  const double bus = std::max(data, bus_free_);
  bus_free_ = bus + double(trans.get_data_length()) / timing_.bandwidth;
  const double done = bus_free_ + timing_.controller;
  (hit ? row_hits : row_misses)++;
  (trans.is_write() ? writes : reads)++;
  bytes += trans.get_data_length();
  if (keep_records)
    records_.push_back({trans.is_write(), trans.get_address(), trans.get_data_length(), arrival, done - arrival, hit});
  delay = to_sc_time(done - now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace hwsim::warp
