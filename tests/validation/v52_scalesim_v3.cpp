// hwsim against SCALE-Sim v3 run side by side (scripts/make_scalesim_records.py ->
// data/public/scalesim_v3.jsonl; configs/tpu_scalesim.toml maps each SCALE-Sim configuration 1:1
// through the record's `set`). CALC mode (the interface never stalls): the cycles must agree to
// the cycle but for SCALE-Sim's counting from 0 (hwsim = SCALE-Sim + 1) in all three dataflows —
// this fails if the os fold cost, the operand orientation, the fold mapping or the per-operand
// scratchpads stopped mapping 1:1. USER mode (per-operand DRAM bandwidths, stalls): SCALE-Sim
// replays an address trace through its double-buffered scratchpads, hwsim a blocked pipeline on
// rate-limited channels; the gate is the MAPE reached (docs/systolic.md says where they differ).
#include <doctest/doctest.h>

#include "tests/validation/systolic_records.h"

using namespace hwsim::test;

TEST_CASE("validation: SCALE-Sim v3 compute cycles (CALC mode), ws / is / os, to the cycle") {
  int checked = 0;
  for (const auto& r : run_gemm_records("scalesim_v3.jsonl")) {
    if (r.record.at("case").get<std::string>().rfind("calc_", 0) != 0) continue;
    ++checked;
    double cycles = r.record.at("cycles").get<double>();
    INFO(r.record.at("case").get<std::string>() << ": SCALE-Sim " << cycles << " cycles, hwsim " << r.predicted * 1e9);
    CHECK(std::abs(r.predicted * 1e9 - (cycles + 1)) < 0.5);
  }
  CHECK(checked == 15);
}
