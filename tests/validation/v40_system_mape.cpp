// Accuracy gates for systems of chips on the H200 ×2 and ×4 (NV18) measurements (docs/systems.md,
// "Accuracy"). Fitted on the shared calibration file (collective.channel_bandwidth on its 1 GiB
// all_reduce, collective.launch_overhead on its 1 KiB–1 MiB all_reduce floor); the other files
// judge. The tensor-parallel decode steps meet the 8 % goal; the project's own collective sweep
// (CUDA-graph timings, a lower per-call floor than the shared file's harness, and NCCL's slow
// mid-size ramp and all_gather/reduce_scatter) does not: its gate holds today's figure so it
// cannot get worse unnoticed.
#include <doctest/doctest.h>

#include "tests/fixtures/validate_gate.h"

using namespace hwsim::test;

namespace {
// RECORDS relative to the source tree.
void validate_on_system(const std::string& records, const std::string& kind, double max_mape,
                        const std::string& system = "h200x2") {
  check_gate(records, "--system " + system + " --kind " + kind, max_mape);
}
std::string measurements(const std::string& file) { return "data/measurements/" + file; }
}  // namespace

TEST_CASE("validation: H200x2 tensor-parallel decode steps MAPE <= 8 %") {
  validate_on_system(measurements("h200x2_tp_decode.jsonl"), "tp_decode_step", 8);
}

TEST_CASE("validation: H200x2 collectives of the shared calibration file MAPE <= 15 %") {
  validate_on_system("../shared/calibration/h100_calibration.jsonl", "collective", 15);
}

TEST_CASE("validation: H200x2 collective sweep of this project MAPE <= 26 %") {
  validate_on_system(measurements("h200x2_collectives.jsonl"), "collective", 26);
}

// 4 × H200 of the same host (scripts/measure/run_h200x4_collectives.sh, NCCL 2.28.9, 24 channels,
// NVLS off on the lent machines): ring all_reduce on 2-4 GPUs, all_gather and reduce_scatter on 4,
// CUDA-graph timing. Judged, not fitted: 15.4 % today (1 GiB ring on 4 GPUs 336 vs 355 GB/s; the
// mid-size ramp and the small-size floor as in the 2-GPU sweep); the gate holds that figure.
TEST_CASE("validation: H200x4 collective sweep of this project MAPE <= 16 %") {
  validate_on_system(measurements("h200x4_collectives.jsonl"), "collective", 16, "h200x4");
}
