#include "models/gpu/warp/tlm_dram.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fmt/format.h>

#include "models/gpu/warp/warp_params.h"
#include "sim/error.h"

namespace hwsim::warp {

TlmDram::TlmDram(sc_core::sc_module_name name) : sc_module(name), socket("socket") {}

void TlmDram::start_kernel(const WarpParams& p) {
  cycle_seconds_ = 1.0 / p.chip.clock_hz;
  base_ = sc_core::sc_time_stamp();
  reads_ = writes_ = read_bytes_ = write_bytes_ = 0;
  read_latency_sum_ = 0;
}

double TlmDram::transport(tlm::tlm_command command, double t, std::uint64_t addr, int bytes) {
  if (data_.size() < std::size_t(bytes)) data_.resize(std::size_t(bytes));
  std::fill(data_.begin(), data_.begin() + bytes, 0);
  trans_.set_command(command);
  trans_.set_address(addr);
  trans_.set_data_ptr(data_.data());
  trans_.set_data_length(unsigned(bytes));
  trans_.set_streaming_width(unsigned(bytes));
  trans_.set_byte_enable_ptr(nullptr);
  trans_.set_byte_enable_length(0);
  trans_.set_dmi_allowed(false);
  trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  // the access's local time offset from the SystemC time now (0 if a waiting target moved the
  // time past it)
  const double now = sim_now();
  const double local = seconds_of(base_) + t * cycle_seconds_;
  sc_core::sc_time delay = local > now ? to_sc_time(local - now) : sc_core::SC_ZERO_TIME;
  const double offered = seconds_of(delay);
  socket->b_transport(trans_, delay);
  if (trans_.is_response_error())
    workload_error(fmt::format("the TLM DRAM target ({}) answered {} to a {} of {} B at 0x{:x}", socket.name(),
                               trans_.get_response_string(), command == tlm::TLM_READ_COMMAND ? "read" : "write", bytes, addr));
  const double added = (sim_now() - now) + (seconds_of(delay) - offered);
  return std::max(0.0, added / cycle_seconds_);
}

std::int64_t TlmDram::read(double t, std::uint64_t addr, int bytes) {
  const double latency = transport(tlm::TLM_READ_COMMAND, t, addr, bytes);
  ++reads_;
  read_bytes_ += std::uint64_t(bytes);
  read_latency_sum_ += latency;
  // a latency of whole cycles stays whole (1e-6: the fs grid of sc_time)
  return std::int64_t(std::ceil(t + latency - 1e-6));
}

void TlmDram::write(double t, std::uint64_t line_addr, std::uint32_t sectors, int sector_bytes) {
  // one write per run of adjacent sectors
  for (std::uint32_t m = sectors; m;) {
    const int first = std::countr_zero(m);
    const int run = std::countr_one(m >> first);
    transport(tlm::TLM_WRITE_COMMAND, t, line_addr + std::uint64_t(first * sector_bytes), run * sector_bytes);
    ++writes_;
    write_bytes_ += std::uint64_t(run * sector_bytes);
    m &= run >= 32 ? 0u : ~(((1u << run) - 1) << first);
  }
}

}  // namespace hwsim::warp
