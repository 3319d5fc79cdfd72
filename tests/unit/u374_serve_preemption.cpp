// Preemption by recompute when the KV pool is full: two requests (prompt 16, output 20) in a pool
// of 3 blocks of 16 tokens (kv_blocks=3). Step 1 prefills both (a block each); at step 2 both need
// a second block, one is free: A takes it, B (the last admitted) is preempted, its block freed. B
// waits until A ends at step 20 (A takes the third block at step 18), then recomputes 17 tokens
// (prompt + its first token) at step 21 and decodes its 18 remaining tokens.
#include <doctest/doctest.h>

#include "tests/unit/u37_serve_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("serve preemption: a full pool preempts the last admitted sequence, which recomputes") {
  std::string out = serve_formatted("h100", "serve:model=llama3_8b,layers=1,requests=2,prompt=16,output=20,kv_blocks=3",
                                    {}, step_lines);
  auto lines = lines_of(out);
  REQUIRE(lines.size() > 21);
  CHECK(lines[0] == "pre 1 steps 39");  // A ends at step 20; B recomputes at 21, decodes 22..39
  CHECK(lines[1] == "0 32 2");          // step 1: both prefills, a block each
  CHECK(lines[2] == "1 0 2");           // step 2: A decodes (2 blocks), B preempted (its block freed)
  CHECK(lines[18] == "1 0 3");          // step 18: A's 34th position takes the third block
  CHECK(lines[20] == "1 0 3");          // step 20: A's last token (B could not get 2 blocks)
  CHECK(lines[21] == "0 17 2");         // step 21: B recomputes prompt + its first token
}
