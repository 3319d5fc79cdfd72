// Contention on the links, simulated (one SystemC run): topologies built by hand, 1 GB transfers.
// Star: devices 0, 1, 2 each joined to one switch by one link of 10 GB/s per direction.
//   0→2 alone: 10 GB/s, 0.1 s. 0→2 and 1→2 together share switch→2: 5 GB/s each, 0.2 s both.
//   0→1 and 1→0 together use opposite directions (full duplex): 0.1 s each.
//   0→2 (1 GB) with 1→2 (0.5 GB): both at 5 GB/s until 1→2 ends at 0.1 s; 0→2 then has 0.5 GB
//   left at 10 GB/s: ends at 0.15 s. Link bytes: every byte crosses 2 links.
// Host bridge: devices 0, 1 each joined to a bridge of 15 GB/s by a 10 GB/s link. 0→1 and 1→0
//   both cross the bridge: 7.5 GB/s each, 0.1333 s. Staged through host memory (the bridge crossed
//   twice per byte): alone 7.5 GB/s (0.1333 s), both 3.75 GB/s (0.2667 s).
// Collective engine of 12 GB/s per device (sent + received): 0→2 alone 10 GB/s (the link); 0→2
//   with 2→0: device 0's engine moves both, 6 GB/s each, 0.1667 s.
#include <doctest/doctest.h>

#include <functional>
#include <vector>

#include "models/cluster/fabric.h"
#include "models/cluster/system_spec.h"
#include "models/cluster/topology.h"
#include "sim/engine/systemc.h"

using namespace hwsim;

namespace {

constexpr double GB = 1e9;

// Built in place (a Topology must not be copied: it keeps descriptors into its own graph).
void star(Topology& t) {
  for (int d = 0; d < 3; ++d) t.add_vertex({VertexKind::device, 0, d});
  auto sw = t.add_vertex({VertexKind::switch_chip, 0});
  for (int d = 0; d < 3; ++d) t.add_link(t.device_vertex(d), sw, 1, 10 * GB, 0, 0, LinkScale::scale_up);
}

void bridge(Topology& t, double transit_weight) {
  for (int d = 0; d < 2; ++d) t.add_vertex({VertexKind::device, 0, d});
  TopoVertex host{VertexKind::host_bridge, 0};
  host.capacity = 15 * GB;
  host.transit_weight = transit_weight;
  auto h = t.add_vertex(host);
  for (int d = 0; d < 2; ++d) t.add_link(t.device_vertex(d), h, 1, 10 * GB, 0, 0, LinkScale::scale_up);
}

struct Move {
  std::int64_t from, to;
  double bytes;
};

class Driver : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Driver);
  Driver(sc_core::sc_module_name name, std::function<void(Driver&)> script) : sc_core::sc_module(name), script_(std::move(script)) {
    SC_THREAD(run);
  }
  // Starts the transfers together; returns, when the last has arrived, each one's duration.
  std::vector<double> together(Fabric& f, const std::vector<Move>& transfers) {
    double t0 = sim_now();
    std::vector<double> ends(transfers.size(), -1);
    std::size_t pending = transfers.size();
    sc_core::sc_event done;
    for (std::size_t i = 0; i < transfers.size(); ++i)
      f.transfer(transfers[i].from, transfers[i].to, transfers[i].bytes, 1.0, [&, i] {
        ends[i] = sim_now() - t0;
        if (--pending == 0) done.notify();
      });
    sc_core::wait(done);
    return ends;
  }
  bool finished = false;

 private:
  void run() {
    script_(*this);
    finished = true;
  }
  std::function<void(Driver&)> script_;
};

}  // namespace

TEST_CASE("cluster fabric: transfers sharing a link direction or a bridge share its bandwidth") {
  init_systemc();
  Topology s, direct, staged;
  star(s);
  bridge(direct, 1);
  bridge(staged, 2);
  CollectiveTuning plain;  // links at their full bandwidth, no engine limit
  CollectiveTuning engine_limited;
  engine_limited.engine_bandwidth = 12 * GB;
  Fabric links("links", s, plain);
  Fabric host("host", direct, plain);
  Fabric host_staged("host_staged", staged, plain);
  Fabric engines("engines", s, engine_limited);
  std::vector<std::vector<double>> got;
  Driver driver("driver", [&](Driver& d) {
    got.push_back(d.together(links, {{0, 2, GB}}));
    got.push_back(d.together(links, {{0, 2, GB}, {1, 2, GB}}));
    got.push_back(d.together(links, {{0, 1, GB}, {1, 0, GB}}));
    got.push_back(d.together(links, {{0, 2, GB}, {1, 2, GB / 2}}));
    got.push_back(d.together(host, {{0, 1, GB}}));
    got.push_back(d.together(host, {{0, 1, GB}, {1, 0, GB}}));
    got.push_back(d.together(host_staged, {{0, 1, GB}}));
    got.push_back(d.together(host_staged, {{0, 1, GB}, {1, 0, GB}}));
    got.push_back(d.together(engines, {{0, 2, GB}}));
    got.push_back(d.together(engines, {{0, 2, GB}, {2, 0, GB}}));
  });
  sc_core::sc_start();
  rethrow_simulation_failure();
  REQUIRE(driver.finished);
  REQUIRE(got.size() == 10);
  using doctest::Approx;
  CHECK(got[0][0] == Approx(0.1));
  CHECK(got[1][0] == Approx(0.2));
  CHECK(got[1][1] == Approx(0.2));
  CHECK(got[2][0] == Approx(0.1));
  CHECK(got[2][1] == Approx(0.1));
  CHECK(got[3][1] == Approx(0.1));
  CHECK(got[3][0] == Approx(0.15));
  CHECK(links.link_bytes() == Approx(2 * (1 + 2 + 2 + 1.5) * GB));

  CHECK(got[4][0] == Approx(0.1));
  CHECK(got[5][0] == Approx(1.0 / 7.5));
  CHECK(got[5][1] == Approx(1.0 / 7.5));
  CHECK(got[6][0] == Approx(1.0 / 7.5));
  CHECK(got[7][0] == Approx(1.0 / 3.75));
  CHECK(got[7][1] == Approx(1.0 / 3.75));

  CHECK(got[8][0] == Approx(0.1));
  CHECK(got[9][0] == Approx(1.0 / 6));
  CHECK(got[9][1] == Approx(1.0 / 6));
}
