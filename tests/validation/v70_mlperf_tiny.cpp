// Accuracy gates for microcontrollers against MLPerf Tiny (closed division) inference latencies
// (data/public/mlperf_tiny.jsonl, made by scripts/make_public_mlperf_tiny_records.py; each record cites
// its results.txt and the submission's framework; docs/calibration.md, "Microcontrollers (mcu)
// parameters"). Fitted: X-CUBE-AI 9.0's per-layer cost and the H7's AXI flash-miss cycles, on the four
// NUCLEO-H7A3ZI-Q records. Judged here, and only here: the same framework (X-CUBE-AI 9.0 and 10.2) on a
// Cortex-M4 (NUCLEO-L4R5ZI) and a Cortex-M33 (NUCLEO-U575ZI-Q), and TFLM + CMSIS-NN on a Cortex-M85
// (EK-RA8D1), whose parameters are all datasheet values or inner-loop estimates.
#include <doctest/doctest.h>

#include "tests/fixtures/validate_gate.h"

using namespace hwsim::test;

namespace {
void gate_judged(const std::string& chip, double max_mape) {
  check_gate("data/public/mlperf_tiny.jsonl",
             "--chip " + chip + " --kind mlperf_tiny --where chip=" + chip + " --where role=judge", max_mape);
}
}  // namespace

TEST_CASE("validation: MLPerf Tiny on the NUCLEO-L4R5ZI (Cortex-M4, X-CUBE-AI 9.0/10.2), judged, MAPE <= 30 %") {
  gate_judged("cortex_m4_stm32l4r5", 30);
}

TEST_CASE("validation: MLPerf Tiny on the NUCLEO-U575ZI-Q (Cortex-M33, X-CUBE-AI 9.0/10.2), judged, MAPE <= 30 %") {
  gate_judged("cortex_m33_stm32u575", 30);
}

TEST_CASE("validation: MLPerf Tiny on the EK-RA8D1 (Cortex-M85, TFLM + CMSIS-NN), judged, MAPE <= 30 %") {
  gate_judged("cortex_m85", 30);
}
