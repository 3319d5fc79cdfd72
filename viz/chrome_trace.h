#pragma once
// The kernel timeline of a tile-level run as a Chrome trace (chrome://tracing, Perfetto): one
// track of steps and one of kernels, each kernel an event with its class, lowering, bound, bytes
// per level and CTAs; its launch is a separate event before it. On a system: one process per
// simulated device (pipeline stage), each with its kernels and its collectives (links) tracks.
#include <nlohmann/json.hpp>

#include "sim/result.h"

namespace hwsim {

nlohmann::json kernel_timeline_trace(const RunResult& result);

}  // namespace hwsim
