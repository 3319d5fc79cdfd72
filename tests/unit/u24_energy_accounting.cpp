// A kernel's energy is static power × its time + active-SM power × busy SM-seconds + FLOP, HBM and
// L2 energies (models/gpu/power); each term is checked alone by zeroing the others, below the
// power limit, raised out of reach (the clock stays at its max, where every energy is its max-clock
// figure: 1 pJ per bf16 FLOP alone would draw ~700 W, H100's limit).
#include <doctest/doctest.h>

#include "ops/device.h"
#include "sim/config/config.h"
#include "run/simulate.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
std::vector<std::string> only(const std::string& key, const std::string& value) {
  std::vector<std::string> sets = {"power.idle=0 W", "power.idle_floor=0 W", "power.sm_active=0 W",
                                   "power.energy_per_flop.bf16=0 J", "power.energy_per_flop.fp8=0 J",
                                   "power.energy_per_flop.tf32=0 J", "power.energy_per_flop.fp32=0 J",
                                   "power.hbm_energy_per_byte=0 J", "power.l2_energy_per_byte=0 J",
                                   "power.tdp=5000 W"};
  sets.push_back(key + "=" + value);
  return sets;
}
}  // namespace

TEST_CASE("energy: idle power alone gives idle watts times the run's time") {
  Config config = load_chip("h100", only("power.idle", "100 W"));
  RunResult r = simulate(config, WorkloadCatalog::build("gemm:M=1024,N=1024,K=1024,dtype=bf16"));
  CHECK(r.energy == doctest::Approx(100.0 * r.seconds));
  CHECK(r.average_power == doctest::Approx(100.0));
  CHECK(r.power.average_clock == doctest::Approx(1.98e9));
  CHECK_FALSE(r.above_tdp);
}

TEST_CASE("energy: HBM energy alone gives joules per byte times the HBM bytes moved") {
  Config config = load_chip("h100", only("power.hbm_energy_per_byte", "100 pJ"));
  RunResult r = simulate(config, WorkloadCatalog::build("elementwise:op=copy,T=1,D=268435456,dtype=int8"));
  // Reads all 256 MiB from HBM and writes it back, except up to one L2 (50 MiB) of results still
  // dirty in the write-back L2 when the run ends.
  CHECK(r.bytes_at("hbm") >= 2.0 * 268435456 - 50.0 * 1048576 - 1);
  CHECK(r.bytes_at("hbm") <= 2.0 * 268435456 + 1);
  CHECK(r.energy == doctest::Approx(100e-12 * r.bytes_at("hbm")));
}

TEST_CASE("energy: tensor FLOP energy alone gives joules per FLOP times the FLOPs") {
  Config config = load_chip("h100", only("power.energy_per_flop.bf16", "1 pJ"));
  RunResult r = simulate(config, WorkloadCatalog::build("gemm:M=2048,N=2048,K=2048,dtype=bf16"));
  CHECK(r.energy == doctest::Approx(1e-12 * 2.0 * 2048.0 * 2048.0 * 2048.0));
}

TEST_CASE("energy: an fp8 GEMM takes the fp8 figure") {
  Config fp8 = load_chip("h100", only("power.energy_per_flop.fp8", "0.3 pJ"));
  RunResult r = simulate(fp8, WorkloadCatalog::build("gemm:M=2048,N=2048,K=2048,dtype=fp8"));
  CHECK(r.energy == doctest::Approx(0.3e-12 * 2.0 * 2048.0 * 2048.0 * 2048.0));
}

TEST_CASE("energy: a dtype without a figure of its own takes bf16's power per clock") {
  // int8: no figure of its own; bf16's 1 pJ × 4096 / 8192 FLOP per clock per SM = 0.5 pJ.
  Config int8 = load_chip("h100", only("power.energy_per_flop.bf16", "1 pJ"));
  RunResult i = simulate(int8, WorkloadCatalog::build("gemm:M=2048,N=2048,K=2048,dtype=int8"));
  CHECK(i.energy == doctest::Approx(0.5e-12 * 2.0 * 2048.0 * 2048.0 * 2048.0));
}

TEST_CASE("energy: static power above the limit at every clock is flagged, the clock at its floor") {
  std::vector<std::string> sets = only("power.idle", "900 W");
  sets.push_back("power.idle_floor=900 W");  // none of it falls with the clock
  sets.push_back("power.tdp=700 W");
  // The governor first updates one control period (20 us) into a kernel: the second call of a
  // 4096^3 GEMM (~0.2 ms) runs wholly at the clock it then sets.
  RunResult r = simulate(load_chip("h100", sets), WorkloadCatalog::build("gemm:M=4096,N=4096,K=4096,dtype=bf16,repeat=2"));
  CHECK(r.above_tdp);
  CHECK(r.power.min_clock == doctest::Approx(345e6));
}
