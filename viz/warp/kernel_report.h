#pragma once
// Printers for a warp-model kernel run: the JSON document (kernel_document.cpp: result.cycles,
// result.warp_instructions, the whole-kernel figures, ...), the text report a learner reads (IPC,
// occupancy, SIMD efficiency, bandwidth per level against its peak, the roofline, energy, stalls,
// the dominant stall explained with its source line, a bank map), and a Chrome trace with a track
// per warp (kernel_trace.cpp). They only format what KernelRun and KernelFigures hold.
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "models/gpu/warp/kernel_figures.h"
#include "models/gpu/warp/kernel_launch.h"

namespace hwsim::warp {

nlohmann::json kernel_document(const KernelRun& run, const KernelFigures& figures);
nlohmann::json kernel_document(const KernelRun& run);  // computes the figures
void print_kernel_report(std::ostream& out, const KernelRun& run, const KernelFigures& figures);
std::string chrome_trace(const KernelRun& run);
// The dominant stall (never "selected") and its one-paragraph explanation.
std::string dominant_stall_text(const KernelRun& run);

}  // namespace hwsim::warp
