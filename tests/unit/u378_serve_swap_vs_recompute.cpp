// Swap against recompute on the forced preemption of u374 (two requests of prompt 16 and output 20
// in 3 blocks of 16 tokens). With preemption=swap, B's one block goes to host memory at step 2 and
// comes back at step 21, where B decodes on (its KV intact) instead of recomputing 17 tokens. Both
// runs take 39 steps. A swap of one block over a host link of 1 GB/s (efficiency 1) with 10 us per
// copy: Llama-3-8B at layers=1 holds 2 · 8 KV heads · 128 · 2 B = 4096 B per token, so a block is
// 16 · 4096 = 65,536 B in 2 copies (the layer's K and V): 2 · 10 us + 65,536 B / 1 GB/s = 85.536 us,
// added before the step's forward pass, whose time is the recompute run's step 2 (the same shape
// after the same shape).
#include <doctest/doctest.h>

#include <cmath>

#include "tests/unit/u37_serve_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
const char* kSpec = "serve:model=llama3_8b,layers=1,requests=2,prompt=16,output=20,kv_blocks=3";
const std::vector<std::string> kLink = {"host_link.bandwidth=1GB/s", "host_link.efficiency=1",
                                        "host_link.copy_overhead=10us"};

std::string lines(const ServingMetrics& m) {
  std::string s = fmt::format("outs {} ins {} bytes {}\n", m.swap_outs, m.swap_ins, m.swapped_bytes);
  for (const auto& st : m.steps) s += fmt::format("{} {} {:a} {:a}\n", st.decodes, st.prefill_tokens, st.seconds, st.swap_seconds);
  return s;
}
}  // namespace

TEST_CASE("serve swap: the preempted sequence's block crosses the host link out and back; no recompute") {
  auto swap = lines_of(serve_formatted("h100", std::string(kSpec) + ",preemption=swap", kLink, lines));
  auto recompute = lines_of(serve_formatted("h100", kSpec, kLink, lines));
  REQUIRE(swap.size() == 40u);  // a header and 39 steps
  REQUIRE(recompute.size() == 40u);
  CHECK(swap[0] == "outs 1 ins 1 bytes 131072");  // one block out and back
  CHECK(recompute[0] == "outs 0 ins 0 bytes 0");
  const double block = 2 * 10e-6 + 65536 / 1e9;
  CHECK(field(swap[2], 3) == doctest::Approx(block).epsilon(1e-9));  // step 2: B swapped out
  CHECK(field(swap[2], 2) - field(swap[2], 3) == doctest::Approx(field(recompute[2], 2)).epsilon(1e-9));
  CHECK(field(swap[21], 3) == doctest::Approx(block).epsilon(1e-9));  // step 21: B swapped in
  CHECK(swap[21].rfind("1 0 ", 0) == 0);                               // ... and decodes on
  CHECK(recompute[21].rfind("0 17 ", 0) == 0);                         // recompute: prompt + 1 token again
  for (int s : {1, 3, 20, 39}) CHECK(field(swap[std::size_t(s)], 3) == 0);  // no other step swaps
}
