// Alike CTAs placed at one instant run as one group of flows (TileMachine, FlowNetwork::start_group);
// every record of a run is the same, bit for bit, as when each CTA runs on its own: times, bytes
// per level, breakdown, energy, details. Decode and prefill steps (GEMMs with split-K, norms,
// elementwise kernels, attention), a GEMM in waves, and a partitioned AMD chip with its
// memory-side cache.
#include <doctest/doctest.h>

#include "models/gpu/tile/tile_machine.h"
#include "tests/unit/u26_tile_support.h"

using namespace hwsim;

namespace {
std::string records_text(const std::string& chip, const std::string& spec, bool grouped) {
  return test::records_text(chip, spec, [grouped] { TileMachine::group_alike_ctas(grouped); });
}

void check_same(const std::string& chip, const std::string& spec) {
  std::string grouped = records_text(chip, spec, true), single = records_text(chip, spec, false);
  CHECK(grouped.size() > 100);
  CHECK_MESSAGE(grouped == single, chip << " " << spec);
}
}  // namespace

TEST_CASE("tile groups: a decode step is the same as with one flow per CTA") {
  check_same("h100", "decode:model=llama3_8b,batch=4,context=700,layers=2");
}

TEST_CASE("tile groups: a prefill step is the same as with one flow per CTA") {
  check_same("h100", "prefill:model=llama3_8b,batch=1,prompt=512,layers=1");
}

// Attention of several sequences: the first CTA of each KV head misses where the next three hit,
// and writes evict dirty data here and there, so alike CTAs are not neighbours in the grid: the
// groups gather them from across the instant's placements.
TEST_CASE("tile groups: alike CTAs that are not neighbours form groups, the same as one flow per CTA") {
  check_same("h100", "prefill:model=llama3_8b,batch=8,prompt=128,layers=1");
}

// 1,000 tokens: elementwise kernels of 1,000-odd CTAs, 8 resident per SM, leave some SMs one CTA
// short; the fuller SMs saturate first and a group parts ways in runs of alike members, each run
// staying a group (FlowNetwork::split_group).
TEST_CASE("tile groups: groups that part ways split into runs of alike members, the same as one flow per CTA") {
  check_same("h100", "prefill:model=llama3_8b,batch=1,prompt=1000,layers=1");
}

TEST_CASE("tile groups: a GEMM in several waves and a split-K GEMM are the same") {
  check_same("h100", "gemm:M=4096,N=4096,K=1024,dtype=bf16");
  check_same("a100", "gemm:M=128,N=256,K=16384,dtype=fp16");
}

TEST_CASE("tile groups: a partitioned AMD chip with its memory-side cache is the same") {
  check_same("mi300x", "decode:model=llama3_8b,batch=8,context=300,layers=2");
}
