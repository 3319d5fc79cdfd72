// gpu.warp.dram_model (the warp model's memory below the L2: "builtin" or "tlm", a TLM-2.0 socket
// an embedding program binds): a value it does not know, in --set or a chip file, and "tlm" in the
// hwsim program (which binds no SystemC DRAM model) are one line naming the key, exit 3.
#include "tests/hostile/hostile.h"

using namespace hwsim::hostile;

TEST_CASE("hostile one line, --set: an unknown gpu.warp.dram_model names the key and the choices") {
  refused("--chip h100 --kernel workloads/kernels/vector_add.hwk --grid 1 --block 32 --set gpu.warp.dram_model=ramulator -q", 3,
          "gpu.warp.dram_model: 'ramulator' is not one of: builtin, tlm");
}

TEST_CASE("hostile one line, chip file: an unknown gpu.warp.dram_model names file, line and key") {
  auto dir = case_dir();
  write_input(dir, "c.toml", "extends = \"h100\"\n[gpu.warp]\ndram_model = \"dramsys\"\n");
  refused(dir, "--chip {dir}/c.toml --kernel workloads/kernels/vector_add.hwk --grid 1 --block 32 -q", 3,
          "c.toml:3: gpu.warp.dram_model");
}

TEST_CASE("hostile one line, --set: gpu.warp.dram_model=tlm in the hwsim program, which binds no TLM target") {
  refused("--chip h100 --kernel workloads/kernels/vector_add.hwk --grid 1 --block 32 --set gpu.warp.dram_model=tlm -q", 3,
          "gpu.warp.dram_model = \"tlm\": no TLM-2.0 target is bound");
}
