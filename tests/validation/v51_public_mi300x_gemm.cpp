// Accuracy gate for MI300X GEMMs against a published hipBLASLt FP8 table (data/public/mi300x_gemm.jsonl,
// made by scripts/make_public_mi300x_records.py: Azure's AI-benchmarking-guide, hipblaslt-bench FP8 TN,
// fp16 out; docs/calibration.md "AMD CDNA3"). One record fitted configs/mi300x.toml's
// gpu.tile.tensor_efficiency (8192^3); the other five judge it: MAPE 13.9 %. The threshold is the
// issue's kernel bound, 15 %. The two largest misses have a mechanism the model lacks: 4096^3 (-18 %)
// runs at 82 % of 8192^3's rate as 256 tiles of 256 x 256 on 304 CUs would (the model picks a
// 224 x 256 bf16-list tile that makes exactly 304), and 802816 x 192 x 768 (-26 %) has K = 768, 6
// K-steps per workgroup, too few to hide one workgroup's operand loads and output stores behind its
// MFMAs at one workgroup per CU.
#include <doctest/doctest.h>

#include "tests/fixtures/validate_gate.h"

using namespace hwsim::test;

TEST_CASE("validation: published hipBLASLt FP8 GEMMs on one MI300X (judged records) MAPE <= 15 %") {
  CliRun r = check_gate("data/public/mi300x_gemm.jsonl",
                        "--chip mi300x --kind gemm --where role=judge --exclude '" + std::string(HWSIM_SOURCE_DIR) +
                            "/data/measurements/fitted.toml'",
                        15);
  // all five judged records ran: "mi300x  gemm  judged  5  ..."
  CHECK(r.out.find("gemm                   judged      5 ") != std::string::npos);
}
