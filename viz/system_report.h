#pragma once
// Printers of a run on a system of devices (RunResult::system and its collective records): the
// text section (devices, stages, links, a nccl-tests table for collective sweeps) and the JSON
// object result.system / result.collective. They only format.
#include <nlohmann/json.hpp>
#include <ostream>

#include "sim/result.h"

namespace hwsim {

void print_system_section(std::ostream& out, const RunResult& r);
nlohmann::json system_json(const RunResult& r);
// A collective workload's figures: {algbw, busbw, seconds, bytes, ...} of its single size (GB/s),
// plus "sweep": one entry per size. null when the run has no collective-only steps.
nlohmann::json collective_json(const RunResult& r);

}  // namespace hwsim
