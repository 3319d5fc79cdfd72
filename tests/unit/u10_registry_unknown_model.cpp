// Asking the registry for a model nobody registered is a configuration error listing the known ones.
#include <doctest/doctest.h>

#include "models/gpu/i_gpu_core.h"
#include "sim/registry.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("registry: an unknown model name lists the registered ones") {
  Config config = load_config(chip_file("h100"), {});
  try {
    Registry<GpuCoreModel>::create("tiel", config, "gpu.core.model");
    FAIL("an unknown model was created");
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::config);
    std::string line = e.what();
    CHECK(line.rfind("gpu.core.model: unknown gpu core model 'tiel'", 0) == 0);
    CHECK(contains(line, "known: "));
    for (const auto& name : Registry<GpuCoreModel>::names()) CHECK(contains(line, name));
    CHECK(contains(line, "did you mean tile?"));
  }
}
