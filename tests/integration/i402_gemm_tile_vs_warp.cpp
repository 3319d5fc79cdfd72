// The tile model and the warp model agree on a small FP32 GEMM: 256³ through the tile model's
// cuBLAS-like lowering (`-w gemm`) and through the register-blocked SIMT kernel on the warp model
// (32x32 tiles, 4x4 per thread, split-K 4, like the tile model's choice of split-K 4), within 15 %.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("tile vs warp: 256^3 fp32 GEMM within 15 %") {
  auto tj = scratch_dir() / "gemm_tile.json";
  auto wj = scratch_dir() / "gemm_warp.json";
  CliRun t = run_hwsim("--chip configs/h100.toml -w gemm:M=256,N=256,K=256,dtype=fp32 --json '" + tj.string() + "'");
  REQUIRE(t.exit_code == 0);
  CliRun w = run_hwsim("--chip configs/h100.toml --set gpu.core.model=warp --kernel workloads/kernels/matmul_regblock.hwk "
                       "--grid 256 --block 64 --arg n=256 --arg splitk=4 --json '" + wj.string() + "'");
  REQUIRE(w.exit_code == 0);
  std::ifstream ti(tj), wi(wj);
  double tile = nlohmann::json::parse(ti)["result"]["seconds"].get<double>();
  double warp = nlohmann::json::parse(wi)["result"]["seconds"].get<double>();
  MESSAGE("tile " << tile * 1e6 << " us, warp " << warp * 1e6 << " us");
  CHECK(warp / tile > 0.85);
  CHECK(warp / tile < 1.15);
}
