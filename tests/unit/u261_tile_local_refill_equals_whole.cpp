// After a change the flow network refills only the flows it reaches, the shared memory levels
// left out and then checked (FlowNetwork::local_filling); every record of a run is the same, bit
// for bit, as when the whole network fills after every change. Steps where compute limits (a
// prefill's attention CTAs of many lengths, GEMMs) take the local refills; memory-bound ones
// (decode, elementwise kernels) mostly fill whole, and the passages between the two are exercised.
#include <doctest/doctest.h>

#include "sim/engine/flow_network.h"
#include "tests/unit/u26_tile_support.h"

using namespace hwsim;

namespace {
// The records, then "local refills N" (that sufficed, over the run).
std::string run_text(const std::string& chip, const std::string& spec, bool local) {
  std::uint64_t before = 0;  // the process's count when the run starts (a forked child inherits it)
  return test::records_text(
      chip, spec,
      [&] {
        FlowNetwork::local_filling(local);
        before = FlowNetwork::process_fill_counts().local;
      },
      [&] { return fmt::format("local refills {}\n", FlowNetwork::process_fill_counts().local - before); });
}

// `refills`: local refills are expected (many flows, compute-bound); a decode step or a GEMM whose
// waves run as a few groups has too few flows for them (FlowNetwork: kLocalMinFlows).
void check_same(const std::string& chip, const std::string& spec, bool refills) {
  std::string local = run_text(chip, spec, true), whole = run_text(chip, spec, false);
  auto records = [](const std::string& text) { return text.substr(0, text.rfind("local refills")); };
  CHECK(records(local).size() > 100);
  CHECK_MESSAGE(records(local) == records(whole), chip << " " << spec);
  CHECK(whole.ends_with("local refills 0\n"));
  CHECK_MESSAGE(local.ends_with("local refills 0\n") != refills, spec);
}
}  // namespace

TEST_CASE("local refill: a prefill step is the same as whole fillings") {
  check_same("h100", "prefill:model=llama3_8b,batch=1,prompt=512,layers=1", true);
}

TEST_CASE("local refill: a batched prefill and a decode step are the same as whole fillings") {
  check_same("h100", "prefill:model=llama3_8b,batch=8,prompt=128,layers=1", true);
  check_same("h100", "decode:model=llama3_8b,batch=16,context=900,layers=2", false);
}

TEST_CASE("local refill: GEMMs in waves and a partitioned chip with a memory-side cache are the same") {
  check_same("h100", "gemm:M=4096,N=4096,K=1024,dtype=bf16", false);
  check_same("mi300x", "prefill:model=llama3_8b,batch=1,prompt=256,layers=1", true);
}
