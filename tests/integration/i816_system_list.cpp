// `hwsim list systems` names the shipped systems (configs/systems/*.toml) with their chips;
// `hwsim list params system` prints the keys of a system file (the option's help names the kind
// `system` beside gpu and systolic), none of a chip's.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli system: list systems names the 8 shipped systems and their chips") {
  CliRun r = run_hwsim("list systems");
  CHECK(r.exit_code == 0);
  for (const char* name : {"a100x2_nvlink", "dgx_h100", "h100_cluster", "h200x2", "h200x4", "rtx4090x2_pcie",
                           "tpu_v5e_16x16", "tpu_v5p_4x4x8"})
    CHECK_MESSAGE(contains(r.out, name), std::string(name));
  for (const auto& line : lines_of(r.out))
    if (line.rfind("tpu_v5e_16x16", 0) == 0) CHECK(contains(line, "tpu_v5e"));
}

TEST_CASE("cli system: list params system prints the system keys only") {
  CliRun r = run_hwsim("list params system");
  CHECK(r.exit_code == 0);
  for (const char* key : {"system.chip", "scale_up.link_bandwidth", "scale_out.switch_radix", "collective.channels"})
    CHECK_MESSAGE(contains(r.out, key), std::string(key));
  for (const auto& line : lines_of(r.out)) {
    CHECK_MESSAGE(line.rfind("gpu.", 0) != 0, line);
    CHECK_MESSAGE(line.rfind("memory.", 0) != 0, line);
  }
}
