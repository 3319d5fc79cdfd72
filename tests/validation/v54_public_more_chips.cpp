// Accuracy gates for shipped chips whose first public records these are (issue 35):
// data/public/more_chips.jsonl, made by scripts/make_public_more_chips_records.py (each record cites
// its source and software; docs/calibration.md "Public calibration sets, per chip"). Nothing there
// fitted a parameter; every record is judged, on its own chip. The bounds are what the model reaches
// (a little above), not the 15 %, where it misses, with the mechanism suspected:
// - rtx4090 (30 GEMMs, cuBLASLt and torch.mm, int8 to fp32) and rtx5090 (12 torch.mm): predicted
//   slow, by 5-20 %. Both cards hold more than their rated boost clock under a GEMM (the RTX 4090's
//   bf16 16384^3 reaches 168.6 TFLOPS, above the 165.2 its whitepaper gives at 2520 MHz; the RTX
//   5090's bf16 10240^3 237 TFLOPS, above 209.5 at 2407 MHz); the configs clock at the rated boost.
// - mi325x (fp32 torch.matmul 16384^3; bf16 torch.mm at the MAMF table's best shape): predicted
//   15 % slow.
// - gb200 FP8 (8 cuBLASLt GEMMs, Azure) within 9.3 %; NVFP4 (8) 32 %: small shapes predicted up to
//   2x fast, large ones 14-31 % slow (6.4 PFLOPS predicted at 16384^3 against 7.6 measured: the power
//   governor's estimated NVFP4 energy per FLOP holds the clock lower than the card does). The MAMF
//   table's two best shapes (bf16 4096x9728x2048, fp8 19456x5120x1536: short K, newer cuBLAS)
//   are predicted 24 % and 41 % slow: the model's per-tile fill and epilogue weigh on short-K tiles
//   more than Blackwell's persistent kernels let them.
#include <doctest/doctest.h>

#include "tests/fixtures/validate_gate.h"

using namespace hwsim::test;

namespace {
CliRun gate(const std::string& chip, const std::string& filters, double max_mape) {
  return check_gate("data/public/more_chips.jsonl",
                    "--chip " + chip + " --kind gemm --where role=judge --where chip=" + chip + " " + filters, max_mape);
}
}  // namespace

TEST_CASE("validation: more chips: RTX 4090 GEMMs (gpu-flops-bench cuBLASLt, torch.mm) MAPE <= 11.5 %") {
  CliRun r = gate("rtx4090", "", 11.5);
  CHECK(r.out.find("gemm                   judged     30 ") != std::string::npos);
}

TEST_CASE("validation: more chips: RTX 5090 torch.mm GEMMs MAPE <= 10 %") {
  CliRun r = gate("rtx5090", "", 10);
  CHECK(r.out.find("gemm                   judged     12 ") != std::string::npos);
}

TEST_CASE("validation: more chips: L40S memory streams (an L40's gpu-stream: fill, read, copy of 2 GiB) within 7.5 %") {
  // an L40 stands in (the same AD102, 96 MB L2 and 864 GB/s GDDR6): fill and read predicted 6.6-6.8 %
  // slow, copy 2.3 %
  CliRun r = check_gate("data/public/more_chips.jsonl", "--chip l40s --where role=judge --where chip=l40s", 7.5);
  CHECK(r.out.find("copy                   judged      1 ") != std::string::npos);
  CHECK(r.out.find("fill_fp32              judged      1 ") != std::string::npos);
  CHECK(r.out.find("read_sum_fp32          judged      1 ") != std::string::npos);
}

TEST_CASE("validation: more chips: MI325X torch.matmul fp32 16384^3 and bf16 (MAMF) MAPE <= 15 %") {
  CliRun r = gate("mi325x", "", 15);
  CHECK(r.out.find("gemm                   judged      2 ") != std::string::npos);
}

TEST_CASE("validation: more chips: GB200 FP8 cuBLASLt GEMMs (Azure ND GB200 v6) MAPE <= 10 %") {
  CliRun r = gate("gb200", "--where src=AZ-GB200 --where dtype=fp8", 10);
  CHECK(r.out.find("gemm                   judged      8 ") != std::string::npos);
}

TEST_CASE("validation: more chips: GB200 NVFP4 cuBLASLt GEMMs (Azure ND GB200 v6) MAPE <= 33 %") {
  CliRun r = gate("gb200", "--where dtype=fp4", 33);
  CHECK(r.out.find("gemm                   judged      8 ") != std::string::npos);
}

TEST_CASE("validation: more chips: GB200 torch.mm / _scaled_mm at the MAMF table's best shapes MAPE <= 33 %") {
  CliRun r = gate("gb200", "--where src=MAMF", 33);
  CHECK(r.out.find("gemm                   judged      2 ") != std::string::npos);
}
