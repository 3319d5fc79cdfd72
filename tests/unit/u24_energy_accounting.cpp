// A kernel's energy is idle power × its time + active-SM power × busy SM-seconds + FLOP, HBM and L2
// energies; each term is checked alone by zeroing the others.
#include <doctest/doctest.h>

#include "sim/config/config.h"
#include "app/simulate.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
std::vector<std::string> only(const std::string& key, const std::string& value) {
  std::vector<std::string> sets = {"power.idle=0 W", "power.sm_active=0 W", "power.tensor_energy_per_flop=0 J",
                                   "power.simt_energy_per_flop=0 J", "power.hbm_energy_per_byte=0 J",
                                   "power.l2_energy_per_byte=0 J"};
  sets.push_back(key + "=" + value);
  return sets;
}
}  // namespace

TEST_CASE("energy: idle power alone gives idle watts times the run's time") {
  Config config = load_config("h100", only("power.idle", "100 W"));
  RunResult r = simulate(config, WorkloadCatalog::build("gemm:M=1024,N=1024,K=1024,dtype=bf16"));
  CHECK(r.energy == doctest::Approx(100.0 * r.seconds));
  CHECK(r.average_power == doctest::Approx(100.0));
  CHECK_FALSE(r.above_tdp);
}

TEST_CASE("energy: HBM energy alone gives joules per byte times the HBM bytes moved") {
  Config config = load_config("h100", only("power.hbm_energy_per_byte", "1 nJ"));
  RunResult r = simulate(config, WorkloadCatalog::build("elementwise:op=copy,T=1,D=268435456,dtype=int8"));
  // Reads all 256 MiB from HBM and writes it back, except up to one L2 (50 MiB) of results still
  // dirty in the write-back L2 when the run ends.
  CHECK(r.bytes_at("hbm") >= 2.0 * 268435456 - 50.0 * 1048576 - 1);
  CHECK(r.bytes_at("hbm") <= 2.0 * 268435456 + 1);
  CHECK(r.energy == doctest::Approx(1e-9 * r.bytes_at("hbm")));
}

TEST_CASE("energy: tensor FLOP energy alone gives joules per FLOP times the FLOPs") {
  Config config = load_config("h100", only("power.tensor_energy_per_flop", "1 pJ"));
  RunResult r = simulate(config, WorkloadCatalog::build("gemm:M=2048,N=2048,K=2048,dtype=bf16"));
  CHECK(r.energy == doctest::Approx(1e-12 * 2.0 * 2048.0 * 2048.0 * 2048.0));
}

TEST_CASE("energy: average power above the TDP is flagged") {
  Config config = load_config("h100", only("power.idle", "900 W"));
  RunResult r = simulate(config, WorkloadCatalog::build("gemm:M=1024,N=1024,K=1024,dtype=bf16"));
  CHECK(r.above_tdp);
}
