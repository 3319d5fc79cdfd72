#pragma once
// A sweep file (TOML) for sweeps too big for the command line (docs/sweeps.md):
//
//   chip = "h100"                  # or system = "dgx_h100"
//   workload = "decode_llama8b"
//   set = ["memory.hbm.capacity=96GiB"]   # optional, for every point
//   zip = false                    # optional: pair the lists instead of the cartesian product
//   [[vary]]                       # one table per key, in order (the first varies slowest)
//   key = "memory.hbm.bandwidth"
//   values = "1TB/s..8TB/s:8"      # text as after --vary KEY=, or an array of values
//
// Every mistake is one line "FILE:LINE: what is wrong (what would be right)", UserError(usage).
#include <string>

#include "app/sweep/sweep_spec.h"

namespace hwsim {

SweepSpec load_sweep_file(const std::string& path);

}  // namespace hwsim
