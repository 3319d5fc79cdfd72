#pragma once
// Printers for a warp-model kernel run: the JSON document (result.cycles, result.warp_instructions,
// ...), the text report a learner reads (IPC, occupancy, SIMD efficiency, stalls, the dominant
// stall explained with its source line, a bank map), and a Chrome trace with one track per warp.
// They only format what KernelRun holds.
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "models/gpu/warp/kernel_launch.h"

namespace hwsim::warp {

nlohmann::json kernel_document(const KernelRun& run);
void print_kernel_report(std::ostream& out, const KernelRun& run);
std::string chrome_trace(const KernelRun& run);
// The dominant stall (never "selected") and its one-paragraph explanation.
std::string dominant_stall_text(const KernelRun& run);

}  // namespace hwsim::warp
