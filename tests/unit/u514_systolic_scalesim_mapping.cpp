// The knobs that map a SCALE-Sim v3 configuration 1:1 (configs/tpu_scalesim.toml): the os fold
// cost of SCALE-Sim's code (drain overlapped: R + C + T - 2), the operand orientation fixed,
// per-operand scratchpads and DRAM channels, a fixed GEMM block (a Pallas BlockSpec), and the
// host dispatch of a jitted call kept apart from device time.
#include <doctest/doctest.h>

#include <cmath>

#include "models/systolic/gemm_blocking.h"
#include "models/systolic/mxu_timing.h"
#include "tests/fixtures/json_run.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
SystolicChip scalesim(const std::vector<std::string>& set = {}) {
  return SystolicChip::from_config(load_chip(chip_file("tpu_scalesim"), set));
}
}  // namespace

TEST_CASE("systolic scalesim: os fold cost, drain exposed (paper) versus overlapped (SCALE-Sim's code)") {
  SystolicChip c = scalesim({"systolic.mxu.dataflow=os", "systolic.mxu.rows=128", "systolic.mxu.cols=128"});
  CHECK(c.os_drain == OsDrain::overlapped);
  CHECK(fold_load_cycles(c) == 0);
  // M=256, N=384, K=640: 2 x 3 folds of T = 640, each R + C + T - 2 = 894.
  BlockTiming b = time_block(c, 256, 384, 640);
  CHECK(b.folds == 6);
  CHECK(b.cycles == 6 * (128 + 128 + 640 - 2));
  c.os_drain = OsDrain::exposed;
  CHECK(time_block(c, 256, 384, 640).cycles == 6 * (2 * 128 + 128 + 640 - 2));
  // ws and is always load their stationary operand.
  c.os_drain = OsDrain::overlapped;
  c.dataflow = Dataflow::ws;
  CHECK(fold_load_cycles(c) == 128);
  CHECK(time_block(c, 256, 384, 640).cycles == 15 * (2 * 128 + 128 + 256 - 2));
  // Overlapped preload, os drain overlapped: nothing to load first; the drains hide under streams.
  c.dataflow = Dataflow::os;
  c.preload = Preload::overlapped;
  CHECK(time_block(c, 256, 384, 640).cycles == 6 * 640 + 127 + 127);
}

TEST_CASE("systolic scalesim: the orientation as given never swaps the operands; transposed always does") {
  GemmProblem p;
  p.m = 8, p.n = 4096, p.k = 4096;  // a GEMV-like shape the automatic choice may feed transposed
  SystolicChip as_given = scalesim({"systolic.mxu.orientation=as_given"});
  SystolicChip swapped = scalesim({"systolic.mxu.orientation=transposed"});
  auto a = choose_gemm_blocking(p, as_given), t = choose_gemm_blocking(p, swapped);
  REQUIRE(a);
  REQUIRE(t);
  CHECK_FALSE(a->transposed);
  CHECK(t->transposed);
}

TEST_CASE("systolic scalesim: per-operand scratchpads bound each operand's block") {
  SystolicChip c = scalesim({"memory.vmem.ifmap_size=16 KiB", "memory.vmem.filter_size=64 KiB",
                             "memory.vmem.ofmap_size=64 KiB"});
  REQUIRE(c.split_vmem());
  GemmProblem p;
  p.m = p.n = p.k = 512;
  p.a_bytes = p.b_bytes = p.out_bytes = 1;
  auto b = choose_gemm_blocking(p, c);
  REQUIRE(b);
  BlockFootprint f = stored_operands(p, b->bm, b->bn, b->bk, c);
  CHECK(f.a <= 16 * 1024);
  CHECK(f.b <= 64 * 1024);
  CHECK(f.out <= 64 * 1024);
  // The same problem with one shared scratchpad of the three sizes' sum may take a larger x block.
  SystolicChip shared = scalesim({"memory.vmem.ifmap_size=0 B", "memory.vmem.filter_size=0 B",
                                  "memory.vmem.ofmap_size=0 B", "memory.vmem.size=144 KiB"});
  auto s = choose_gemm_blocking(p, shared);
  REQUIRE(s);
  CHECK(stored_operands(p, s->bm, s->bn, s->bk, shared).a > 16 * 1024);
}

TEST_CASE("systolic scalesim: per-operand DRAM channels, the slowest sets the time") {
  SystolicChip c = scalesim({"memory.hbm.ifmap_bandwidth=4 GB/s", "memory.hbm.filter_bandwidth=8 GB/s",
                             "memory.hbm.ofmap_bandwidth=2 GB/s"});
  CHECK(c.hbm_seconds(4e9, 0, 0) == doctest::Approx(1.0));
  CHECK(c.hbm_seconds(4e9, 8e9, 0) == doctest::Approx(1.0));
  CHECK(c.hbm_seconds(4e9, 8e9, 4e9) == doctest::Approx(2.0));
  // A GEMM step knows which of its loads is the filter: W (N x K) read once per M block.
  GemmProblem p;
  p.m = 64, p.n = 256, p.k = 128;
  p.a_bytes = p.b_bytes = p.out_bytes = 1;
  auto b = choose_gemm_blocking(p, c);
  REQUIRE(b);
  Phase ph = gemm_phase(p, *b, c, "gemm");
  double steps = double(ph.total_steps());
  double w = double(p.n) * p.k, m_blocks = std::ceil(double(p.m) / double(b->bm));
  CHECK(ph.step.load_bytes * ph.step.filter_share * steps == doctest::Approx(b->b_resident ? w : w * m_blocks));
}

TEST_CASE("systolic scalesim: a fixed block (Pallas BlockSpec) is the block used") {
  SystolicChip c = SystolicChip::from_config(load_chip(chip_file("tpu_v5e"), {"systolic.gemm.block_m=512",
      "systolic.gemm.block_n=1024", "systolic.gemm.block_k=1024", "systolic.mxu.orientation=as_given"}));
  GemmProblem p;
  p.m = p.n = p.k = 4096;
  auto b = choose_gemm_blocking(p, c);
  REQUIRE(b);
  CHECK(b->bm == 512);
  CHECK(b->bn == 1024);
  CHECK(b->bk == 1024);
  CHECK(gemm_phase(p, *b, c, "gemm").total_steps() == 8 * 4 * 4);
}

TEST_CASE("systolic host dispatch: a record of its own before the device's work, device time unchanged") {
  const std::string gemm = "--chip tpu_v5e -w gemm:M=1024,N=1024,K=1024";
  auto device = run_hwsim_json(gemm, "device.json");
  auto wall = run_hwsim_json(gemm + " --set systolic.host_dispatch=100us", "wall.json");
  const auto& kernels = wall.at("result").at("steps").at(0).at("kernels");
  REQUIRE(kernels.size() == 2);
  CHECK(kernels.at(0).at("name") == "host dispatch");
  CHECK(kernels.at(0).at("seconds").get<double>() == doctest::Approx(100e-6));
  CHECK(kernels.at(1).at("start").get<double>() == doctest::Approx(100e-6));
  double device_s = device.at("result").at("seconds").get<double>();
  CHECK(kernels.at(1).at("seconds").get<double>() == doctest::Approx(device_s).epsilon(1e-9));
  CHECK(wall.at("result").at("seconds").get<double>() == doctest::Approx(device_s + 100e-6).epsilon(1e-9));
}
