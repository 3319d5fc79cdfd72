// A conv on a GPU and a TPU runs as its implicit GEMM: the run's FLOPs are 2 x the conv's MACs; a
// depthwise conv runs as a stream pass with the same FLOPs.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "run/simulate.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("conv on h100: ResNet-8 runs, FLOPs are twice its MACs") {
  Config config = load_chip(chip_file("h100"), {});
  RunResult r = simulate(config, WorkloadCatalog::build("ic_resnet8"));
  double conv_flops = 0;  // kernels keep the op's name; the convs are the stem, stacks' convs and shortcuts
  for (const auto& k : r.steps.front().records)
    if (k.name == "stem" || k.name.find("conv") != std::string::npos || k.name.find("shortcut") != std::string::npos)
      conv_flops += k.flops;
  CHECK(conv_flops == 2 * (12501632.0 - 640));
  CHECK(r.seconds > 0);
}

TEST_CASE("conv on tpu_v5e: the implicit GEMM and a depthwise vector pass") {
  Config config = load_chip(chip_file("tpu_v5e"), {});
  RunResult r = simulate(config, WorkloadCatalog::build("kws_dscnn"));
  double conv_flops = 0;
  for (const auto& k : r.steps.front().records)
    if (k.op_class == "conv" || k.op_class == "dwconv") conv_flops += k.flops;
  CHECK(conv_flops == 2 * (2656768.0 - 768));
  CHECK_FALSE(r.inference.present);
}
