#pragma once
// The pictures of a kernel run on the warp model (--kernel ... --svg/--html), as standalone <svg>
// elements. Every number drawn is a field of warp::KernelFigures (models/gpu/warp/kernel_figures.h,
// derived once from the model's counters); the charts only place them.
//  - bank_map_svg: the shared-memory bank map, one row per shared-memory instruction, one column
//    per bank; a cell is coloured by the distinct words that bank served per request (1: one
//    wavefront; n: that bank serialises the request n ways) with the number written in it, and the
//    row says the average and worst conflict degree; below, the worst request's single warp.
//  - stall_svg: the warp states (Nsight Compute's stall reasons), one bar per state with cycles,
//    longest first, its share of all warp cycles; the dominant stall highlighted.
#include <string>

#include "models/gpu/warp/kernel_figures.h"

namespace hwsim {

inline constexpr std::size_t kMaxBankRows = 24;  // shared-memory instructions drawn (the chart says when more ran)

std::string bank_map_svg(const warp::KernelFigures& f);
std::string stall_svg(const warp::KernelFigures& f);

}  // namespace hwsim
