// Automatic prefix caching (docs/serving.md, "Prefix caching"; run/serving/serving_prefix_cache.h):
// full blocks of a declared shared prefix are cached once and shared by reference; a hit skips the
// cached tokens' prefill (at most prompt − 1 tokens, as vLLM recomputes the last token); vLLM's hit
// rate = hit tokens / queried prompt tokens; free cached blocks are evicted least recently freed
// first, a request's tail before its head.
#include <doctest/doctest.h>

#include "run/serving/serving_prefix_cache.h"
#include "tests/unit/u37_serve_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {

// "hits queries preempted_queries first_step_blocks cached_tokens(each request)…"
std::string prefix_figures(const std::string& spec) {
  return serve_formatted("h100", spec, {}, [](const ServingMetrics& m) {
    std::string s = fmt::format("{} {} {} {}", m.prefix_hits, m.prefix_queries, m.prefix_preempted_queries,
                                m.steps.empty() ? -1 : m.steps.front().kv_blocks_used);
    for (const auto& r : m.per_request) s += fmt::format(" {}", r.cached_tokens);
    return s;
  });
}

std::vector<long> numbers(const std::string& text) {
  std::vector<long> out;
  std::istringstream in(text);
  for (long v; in >> v;) out.push_back(v);
  return out;
}

}  // namespace

TEST_CASE("prefix cache: chains, shared references, LRU eviction with a request's tail first") {
  PrefixCache c;
  CHECK(c.insert(1, {7, 0}));
  CHECK(c.insert(1, {7, 1}));
  CHECK(c.insert(1, {7, 2}));
  CHECK_FALSE(c.insert(2, {7, 1}));  // cached already: request 2's copy stays its own
  CHECK(c.chain(7, 10) == 3);
  CHECK(c.chain(7, 2) == 2);
  CHECK(c.chain(8, 10) == 0);
  c.acquire(3, 7, 2);  // shares blocks 0 and 1
  CHECK(c.held_by(3) == 2);
  CHECK(c.cached() == 3);  // shared blocks exist once
  c.release(1);            // block 2 is free; 0 and 1 still held by request 3
  CHECK(c.evictable() == 1);
  CHECK(c.evictable_among(7, 3) == 1);
  c.release(3);  // frees 1 then 0: block 1 is older than 0 in the free order
  CHECK(c.evictable() == 3);
  c.evict(1);  // block 2, freed first
  CHECK(c.chain(7, 10) == 2);
  c.evict(1);  // then block 1: the tail before the head
  CHECK(c.chain(7, 10) == 1);
  CHECK(c.evictions() == 2);
  c.acquire(4, 7, 1);  // a held block is not evictable
  CHECK(c.evictable() == 0);
}

TEST_CASE("prefix caching: a shared 1024-token system prompt, hit rate and blocks as the arithmetic says") {
  // 8 requests at once, prompts of 1100 tokens sharing their first 1024 (64 blocks of 16). The first
  // computes the prefix; its 64 full blocks are cached when it is scheduled, so the 7 others of the
  // same step hit 1024 tokens each: hit rate 7 × 1024 / (8 × 1100). Blocks after the first step:
  // 64 shared + 8 × 5 own (positions 1024..1099 fill blocks 64..68), against 8 × 69 unshared.
  const std::string spec = "serve:model=llama3_8b,layers=1,requests=8,rate=inf,prompt=1100,output=4,shared_prefix=1024";
  auto on = numbers(prefix_figures(spec));
  REQUIRE(on.size() == 4 + 8);
  CHECK(on[0] == 7 * 1024);
  CHECK(on[1] == 8 * 1100);
  CHECK(on[2] == 0);
  CHECK(on[3] == 64 + 8 * 5);
  CHECK(on[4] == 0);
  for (int i = 5; i < 12; ++i) CHECK(on[i] == 1024);
  auto off = numbers(prefix_figures(spec + ",prefix_caching=false"));
  CHECK(off[0] == 0);
  CHECK(off[1] == 0);  // no lookups at all
  // without caching the first step holds the first prompt (69 blocks) and a 948-token chunk of the second (60)
  CHECK(off[3] == 69 + 60);
}

TEST_CASE("prefix caching: a wholly cached prompt recomputes its last block, as vLLM (hit ≤ prompt − 1)") {
  // prompt = shared prefix = 1024 tokens: a hit takes ⌊1023 / 16⌋ = 63 blocks, 1008 tokens.
  auto v = numbers(prefix_figures("serve:model=llama3_8b,layers=1,requests=4,rate=inf,prompt=1024,output=2,"
                                  "shared_prefix=1024"));
  REQUIRE(v.size() == 4 + 4);
  CHECK(v[0] == 3 * 1008);
  CHECK(v[1] == 4 * 1024);
  for (int i = 5; i < 8; ++i) CHECK(v[i] == 1008);
}

TEST_CASE("prefix caching: a hit request's TTFT is lower, a miss's unchanged; prefix groups from a trace") {
  // One request at a time (arrivals 1 s apart): the first misses, the others hit their group's
  // blocks kept free-but-cached after the previous one finished.
  std::string path = write_trace("u384_groups.csv", "arrival_s,prompt_tokens,output_tokens,prefix_group,prefix_tokens\n"
                                                    "0,1500,4,0,1400\n1,1500,4,0,1400\n2,1500,4,1,1400\n"
                                                    "3,1500,4,0,700\n4,1500,4,,\n");
  auto ttfts = [&](const std::string& extra) {
    return serve_formatted("h100", "serve:model=llama3_8b,layers=1,trace=" + path + extra, {}, [](const ServingMetrics& m) {
      std::string s = fmt::format("{} {}", m.prefix_hits, m.prefix_queries);
      for (const auto& r : m.per_request) s += fmt::format(" {:a}", r.first_token - r.arrival);
      return s;
    });
  };
  std::string on = ttfts(""), off = ttfts(",prefix_caching=false");
  INFO(on);
  INFO(off);
  // hits: request 1 takes group 0's 87 full blocks (1392 tokens), request 3 the 43 of its 700 (688);
  // request 2 is another group (a miss), request 4 shares nothing
  CHECK(field(on, 0) == 1392 + 688);
  CHECK(field(on, 1) == 5 * 1500);
  CHECK(field(on, 2) == field(off, 2));  // the first request misses either way: the same bits
  CHECK(field(on, 3) < field(off, 3));
  CHECK(field(on, 3) < 0.5 * field(off, 3));  // 108 of 1500 tokens prefilled
  // group 1 misses (the device's caches and clocks carry other steps' history: close, not the same bits)
  CHECK(field(on, 4) == doctest::Approx(field(off, 4)).epsilon(0.02));
  CHECK(field(on, 5) < field(off, 5));
  CHECK(field(on, 6) == doctest::Approx(field(off, 6)).epsilon(0.02));  // nothing shared
}

TEST_CASE("prefix caching: without a declared prefix a run is the same bits with caching on or off") {
  const std::string spec = "serve:model=llama3_8b,layers=1,requests=10,rate=300,prompt=uniform:16..200,output=uniform:"
                           "2..20,seed=4,max_batch=4,kv_blocks=24";
  CHECK(serve_numbers("h100", spec) == serve_numbers("h100", spec + ",prefix_caching=false"));
}

TEST_CASE("prefix caching: under a small pool, preempted requests and evictions keep the pool's count") {
  // 12 requests sharing 512 of 600 prompt tokens, 80 blocks: decodes run out of blocks, requests are
  // preempted and come back (their lookups counted apart), free cached blocks are evicted.
  auto m = serve_formatted("h100", "serve:model=llama3_8b,layers=1,requests=12,rate=inf,prompt=600,output=200,"
                           "shared_prefix=512,kv_blocks=80", {}, [](const ServingMetrics& m) {
    std::int64_t most = 0;
    for (const auto& s : m.steps) most = std::max(most, s.kv_blocks_used);
    return fmt::format("{} {} {} {} {} {} {}", m.preemptions, m.prefix_preempted_queries, m.prefix_hits,
                       m.prefix_queries, most, m.kv_capacity_blocks, m.per_request.size());
  });
  INFO(m);
  CHECK(field(m, 0) > 0);
  CHECK(field(m, 1) > 0);
  CHECK(field(m, 2) <= field(m, 3));
  CHECK(field(m, 4) <= field(m, 5));
  CHECK(field(m, 6) == 12);
}
