// The cpu kind under hostile input: a thread count, a matrix unit or a power figure that cannot be is
// one line naming the file and key, what is wrong and what is right (exit 3); another kind's key is
// refused with the kind; a model DRAM cannot hold is one line with its numbers and advice (exit 4).
#include "tests/hostile/hostile.h"

using namespace hwsim::hostile;

TEST_CASE("hostile cpu: more threads than twice the cores is one line with the bound") {
  refused("--chip xeon_8480 --set cpu.threads=1000 -w decode_llama8b -q", 3,
          "cpu.threads: 1000 threads on 56 cores; give at most 2 x cpu.cores (SMT), or 0 for one per core");
}

TEST_CASE("hostile cpu: a matrix unit without units is one line with both ways out") {
  refused("--chip graviton3 --set cpu.matrix.kind=sme -w decode_llama8b -q", 3,
          "cpu.matrix.kind: graviton3 names a matrix unit 'sme' but gives no cpu.matrix.units");
}

TEST_CASE("hostile cpu: per-core power beyond the package limit is one line with the sum") {
  refused("--chip apple_m2_ultra_cpu --set power.core_active=50W -w decode_llama8b -q", 3, "exceeds power.tdp 100 W");
}

TEST_CASE("hostile cpu: a GPU's key in a cpu chip is refused naming the kind") {
  refused("--chip threadripper_7960x --set gpu.sm_count=100 -w decode_llama8b -q", 3, "gpu.sm_count");
}

TEST_CASE("hostile cpu: Llama-3-70B in bf16 on Graviton3's 128 GB is one line with the need and the advice") {
  refused("--chip graviton3 -w decode_llama70b -q", 4, "needs 141.3 GB");
}
