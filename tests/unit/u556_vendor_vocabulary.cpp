// An AMD chip's lowering descriptions and record details use AMD's words; NVIDIA's are unchanged.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/gpu/gpu_chip.h"
#include "models/gpu/tile/tile_machine.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("vocabulary: AMD rewords CTA/SM lowering descriptions") {
  GpuChip amd = GpuChip::from_config(load_chip(chip_file("mi300x"), {}));
  CHECK(amd.vocabulary.reword("stream 304 CTAs x 256 threads (8 CTA/SM)") ==
        "stream 304 workgroups x 256 threads (8 WG/CU)");
  CHECK(amd.vocabulary.reword("flash-decode 2 KV splits x 8 (seq, kv head) = 16 CTAs") ==
        "flash-decode 2 KV splits x 8 (seq, kv head) = 16 workgroups");
  GpuChip nv = GpuChip::from_config(load_chip(chip_file("h100"), {}));
  CHECK(nv.vocabulary.reword("stream 132 CTAs x 256 threads (8 CTA/SM)") == "stream 132 CTAs x 256 threads (8 CTA/SM)");
}

TEST_CASE("vocabulary: record schema names levels and details in the chip's words") {
  GpuChip amd = GpuChip::from_config(load_chip(chip_file("mi300x"), {}));
  auto s = TileMachine::schema(amd);
  CHECK(s->levels == std::vector<std::string>{"l2", "mall", "hbm"});
  REQUIRE(s->details.size() == 4);
  CHECK(s->details[0].key == "workgroups");
  CHECK(s->details[1].key == "workgroups_per_cu");
  CHECK(s->details[2].key == "cus_used");
  CHECK(s->details[3].key == "dispatch_rounds");
  GpuChip nv = GpuChip::from_config(load_chip(chip_file("h100"), {}));
  CHECK(TileMachine::schema(nv) == TileMachine::schema());  // NVIDIA: the schema it always had
}
