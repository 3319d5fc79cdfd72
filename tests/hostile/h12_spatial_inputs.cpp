// The spatial kind under hostile input: DRAM named without a size, an active power beyond the chip's limit,
// another kind's key are one line naming the key (exit 3); a model the deployment cannot hold is one line with
// the chips it would need (exit 4); a deployment of 65,536 wafers is bounded (the chip count's own bound).
#include "tests/hostile/hostile.h"

using namespace hwsim::hostile;

TEST_CASE("hostile spatial: DRAM named without a size is one line with both ways out") {
  refused("--chip tt_wormhole_n150 --set spatial.dram.size=0B -w decode_llama8b -q", 3,
          "give spatial.dram.size and spatial.dram.bandwidth with a DRAM kind, or kind \"none\" with neither");
}

TEST_CASE("hostile spatial: an active power beyond the limit is one line with the sum") {
  refused("--chip cerebras_wse3 --set spatial.power.active=30kW -w decode_llama8b -q", 3, "exceeds power.tdp");
}

TEST_CASE("hostile spatial: a CPU's key in a spatial chip is refused naming the kind") {
  refused("--chip groq_lpu --set cpu.cores=4 -w decode_llama8b -q", 3, "cpu.cores");
}

TEST_CASE("hostile spatial: Llama-3-70B on one Groq chip is one line with the chips it needs") {
  refused("--chip groq_lpu -w decode_llama70b -q", 4, "--set spatial.chips=");
}

TEST_CASE("hostile spatial: more chips than the bound is one line with the bound") {
  refused("--chip groq_lpu --set spatial.chips=100000 -w decode_llama8b -q", 3, "spatial.chips");
}
