// Golden outputs (tests/golden/): the key results of a fixed set of runs — decode, prefill,
// generate, GEMMs, elementwise and attention kernels, an AMD GPU, TPUs, microcontrollers, systems
// of chips, serving, warp-level kernel programs — are those stored, bit for bit. A speed-up must
// not move a single number; a deliberate change regenerates the files (golden_write) in a commit
// that says why.
#include <doctest/doctest.h>

#include "tests/golden/golden.h"

using namespace hwsim::golden;

namespace {
void check_case(const std::string& name) {
  const GoldenCase* found = nullptr;
  for (const auto& c : golden_cases())
    if (c.name == name) found = &c;
  REQUIRE_MESSAGE(found, "no golden case " << name);
  std::map<std::string, std::string> expected = read_golden(golden_path(HWSIM_SOURCE_DIR, name));
  GoldenFigures actual = case_figures(*found, HWSIM_BINARY, HWSIM_SOURCE_DIR);
  int shown = 0, differing = 0;
  for (const auto& [path, value] : actual) {
    auto it = expected.find(path);
    std::string now = render(value);
    if (it != expected.end() && it->second == now) continue;
    ++differing;
    if (shown++ < 20) MESSAGE(path << ": golden " << (it == expected.end() ? "(absent)" : it->second) << ", now " << now);
  }
  for (const auto& [path, value] : expected)
    if (!actual.count(path)) {
      ++differing;
      if (shown++ < 20) MESSAGE(path << ": golden " << value << ", now absent");
    }
  CHECK_MESSAGE(differing == 0, differing << " of " << expected.size() << " figures differ from tests/golden/" << name
                                          << ".json");
  CHECK(expected.size() > 10);
}
}  // namespace

TEST_CASE("golden: decode_llama8b") { check_case("decode_llama8b"); }
TEST_CASE("golden: decode_batch32_fp8kv") { check_case("decode_batch32_fp8kv"); }
TEST_CASE("golden: prefill_llama8b") { check_case("prefill_llama8b"); }
TEST_CASE("golden: prefill_gpt3_2layers") { check_case("prefill_gpt3_2layers"); }
TEST_CASE("golden: generate_short") { check_case("generate_short"); }
TEST_CASE("golden: generate_fused_h200") { check_case("generate_fused_h200"); }
TEST_CASE("golden: gemm_sweep") { check_case("gemm_sweep"); }
TEST_CASE("golden: elementwise") { check_case("elementwise"); }
TEST_CASE("golden: attention") { check_case("attention"); }
TEST_CASE("golden: mi300x_decode") { check_case("mi300x_decode"); }
TEST_CASE("golden: tpu") { check_case("tpu"); }
TEST_CASE("golden: mcu") { check_case("mcu"); }
TEST_CASE("golden: system") { check_case("system"); }
TEST_CASE("golden: serve") { check_case("serve"); }
TEST_CASE("golden: warp_kernels") { check_case("warp_kernels"); }

TEST_CASE("golden: every case has its test and its file") {
  std::set<std::string> tested = {"decode_llama8b", "decode_batch32_fp8kv", "prefill_llama8b", "prefill_gpt3_2layers",
                                  "generate_short", "generate_fused_h200", "gemm_sweep", "elementwise", "attention",
                                  "mi300x_decode", "tpu", "mcu", "system", "serve", "warp_kernels"};
  for (const auto& c : golden_cases()) {
    CHECK_MESSAGE(tested.count(c.name), c.name << " has no TEST_CASE");
    CHECK_MESSAGE(std::filesystem::exists(golden_path(HWSIM_SOURCE_DIR, c.name)), c.name << " has no golden file");
  }
}
