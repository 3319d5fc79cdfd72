// A sub-partition's issue queues give slots in age order (issue_queues.h), so the oldest ready
// warp of a class is its lowest ready slot, found without scanning the warps. When the slots run
// out the resident warps are renumbered; ready sets and pending warps follow them.
#include <doctest/doctest.h>

#include <deque>

#include "models/gpu/warp/issue_queues.h"

using namespace hwsim::warp;

namespace {

struct Warps {
  std::deque<WarpState> pool;
  std::uint64_t next_age = 0;
  WarpState* make(std::int64_t dep_ready) {
    WarpState& w = pool.emplace_back();
    w.age = next_age++;
    w.dep_ready = dep_ready;
    return &w;
  }
};

}  // namespace

TEST_CASE("issue queues: the oldest ready warp is the lowest slot, also from a given warp on") {
  IssueQueues q;
  Warps ws;
  std::vector<WarpState*> w;
  for (int i = 0; i < 6; ++i) {
    w.push_back(ws.make(10 - i));  // younger warps ready earlier
    q.attach(w.back());
    q.add(w.back(), 0);
  }
  q.promote(0, 7);  // warps 3, 4, 5 ready (ready at 7, 6, 5)
  REQUIRE(q.has_ready(0));
  CHECK(q.warp(q.oldest_ready(0))->age == 3);
  CHECK(q.warp(q.oldest_ready(0, w[4]->issue_slot))->age == 4);  // LRR: from warp 4 on
  q.take(w[3]);
  CHECK(q.warp(q.oldest_ready(0))->age == 4);
  CHECK(q.oldest_ready(0, w[5]->issue_slot + 1) == -1);
}

TEST_CASE("issue queues: warps renumbered when the slots run out keep their order and their queues") {
  IssueQueues q;
  Warps ws;
  std::vector<WarpState*> live;
  // warps come and go: 200 attach, all but the last few detach, so the slots run out and are
  // renumbered several times
  for (int i = 0; i < 200; ++i) {
    WarpState* w = ws.make(1000 - i);
    q.attach(w);
    live.push_back(w);
    if (live.size() > 5) {
      q.detach(live.front());
      live.erase(live.begin());
    }
  }
  REQUIRE(live.size() == 5);
  for (WarpState* w : live) CHECK(q.warp(w->issue_slot) == w);
  for (std::size_t i = 1; i < live.size(); ++i) CHECK(live[i - 1]->issue_slot < live[i]->issue_slot);
  // queue them, pending and ready, then force another renumbering with more arrivals
  for (WarpState* w : live) q.add(w, 2);
  q.promote(2, 802);  // the two youngest (ages 198 and 199, ready at 802 and 801) are ready
  for (int i = 0; i < 70; ++i) {
    WarpState* w = ws.make(5000);
    q.attach(w);
    q.detach(w);
  }
  for (WarpState* w : live) CHECK(q.warp(w->issue_slot) == w);
  CHECK(q.warp(q.oldest_ready(2))->age == live[3]->age);
  q.take(live[3]);
  CHECK(q.warp(q.oldest_ready(2))->age == live[4]->age);
  q.take(live[4]);
  q.promote(2, 1000);  // the pending three, renumbered in the heap, become ready: oldest first
  CHECK(q.warp(q.oldest_ready(2)) == live[0]);
}
