#pragma once
// The pictures of a kernel program's run on the warp model: --svg FILE (the bank map and the warp
// states stacked in one SVG) and --html FILE (one self-contained page: the kernel summary, the
// bank map, the warp states and a sortable instruction table). Printers: every number is a field
// of warp::KernelRun or warp::KernelFigures, formatted.
#include <string>

#include "models/gpu/warp/kernel_figures.h"
#include "sim/config/config.h"

namespace hwsim {

std::string kernel_html_report(const Config& config, const warp::KernelRun& run, const warp::KernelFigures& figures);
std::string kernel_svg_report(const warp::KernelFigures& figures);

}  // namespace hwsim
