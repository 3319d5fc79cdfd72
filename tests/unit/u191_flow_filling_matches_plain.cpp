// FlowNetwork's rates are, bit for bit, those of progressive filling as defined here: every round,
// every unfrozen flow's rate rises by the smallest of (cap − rate) and (a resource's spare ÷ the
// summed weight of the unfrozen flows crossing it, summed exactly in units of its capacity); flows at their cap or
// crossing a saturated resource freeze. Random networks with shared resources, private SMs,
// uneven caps and weights that do not add exactly, groups of alike flows (expanded to their
// members here, as they stand for them; splits included), flows finishing one by one. A faster
// filling must keep this test green: the golden outputs rest on this arithmetic.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "sim/engine/flow_network.h"

using namespace hwsim;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kSaturated = 1e-12;  // the network's margin for "saturated" and "at its cap"

struct PlainFlow {
  double cap;
  std::vector<FlowDemand> demands;
};

// The definition: progressive filling over every flow and every resource each round.
std::vector<double> plain_rates(const std::vector<double>& capacity, const std::vector<PlainFlow>& flows) {
  const std::size_t n = flows.size();
  std::vector<double> rate(n, 0), spare = capacity, weight(capacity.size());
  using Sum = ExactSum<94, 16>;  // FlowNetwork::WeightSum: weights in units of the first capacity
  std::vector<Sum> sums(capacity.size());
  std::vector<char> frozen(n, 0);
  auto saturated = [&](ResourceId r) { return spare[r] <= capacity[r] * kSaturated; };
  for (;;) {
    for (auto& sum : sums) sum.clear();
    double step = kInf;
    bool any = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (frozen[i]) continue;
      any = true;
      step = std::min(step, flows[i].cap - rate[i]);
      for (const auto& d : flows[i].demands) sums[d.resource].add(d.weight * (1.0 / capacity[d.resource]));  // the capacities do not change here
    }
    for (std::size_t r = 0; r < capacity.size(); ++r) weight[r] = sums[r].value() / (1.0 / capacity[r]);
    if (!any) break;
    for (std::size_t r = 0; r < capacity.size(); ++r)
      if (weight[r] > 0) step = std::min(step, spare[r] / weight[r]);
    if (!std::isfinite(step)) step = 0;
    for (std::size_t r = 0; r < capacity.size(); ++r) spare[r] -= weight[r] * step;
    bool froze = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (frozen[i]) continue;
      rate[i] += step;
      bool full = rate[i] >= flows[i].cap * (1 - kSaturated) || step == 0;
      for (const auto& d : flows[i].demands) full = full || (d.weight > 0 && saturated(d.resource));
      if (full) frozen[i] = 1, froze = true;
    }
    if (!froze) break;
  }
  return rate;
}

// One random network: 2 shared resources (L2, HBM) and `sms` private ones; flows and groups.
struct Scenario {
  std::vector<double> capacity;
  struct Start {
    double bytes, cap;
    std::vector<FlowDemand> shared;
    std::vector<ResourceId> sms;  // one: a plain flow; more: a group
    double sm_weight;
  };
  std::vector<Start> starts;
};

Scenario random_scenario(std::mt19937_64& rng, int sms, int starts) {
  std::uniform_real_distribution<double> u(0, 1);
  Scenario s;
  s.capacity = {7e12 * (0.5 + u(rng)), 3.35e12 * (0.5 + u(rng))};
  for (int k = 0; k < sms; ++k) s.capacity.push_back(u(rng) < 0.8 ? 1.0 : 0.5 + u(rng));
  const double caps[] = {kInf, 4e11, 8.75697e11, 2e11 * (1 + u(rng))};
  for (int k = 0; k < starts; ++k) {
    Scenario::Start st;
    st.bytes = 1e5 + 1e6 * u(rng);
    st.cap = caps[std::size_t(u(rng) * 4) % 4] * (u(rng) < 0.5 ? 1.0 : 1.0 + u(rng) / 7);
    st.shared = {{0, 1.0}, {1, u(rng) < 0.2 ? 0.0 : 2.5 * u(rng)}};
    const int members = u(rng) < 0.6 ? 1 : 2 + int(u(rng) * 6);
    for (int m = 0; m < members; ++m) st.sms.push_back(2 + ResourceId(u(rng) * sms) % sms);
    st.sm_weight = (0.5 + u(rng)) / 5e11;
    s.starts.push_back(st);
  }
  return s;
}

// Starts every flow, then finishes flows one completion at a time; after each change compares
// every active flow's rate with the plain algorithm's, exactly.
void check_scenario(const Scenario& s) {
  FlowNetwork net;
  for (double c : s.capacity) net.add_resource("r", c);
  struct Member {
    FlowId id;
    PlainFlow plain;
    bool done = false;
  };
  std::vector<Member> members;  // in start order, a group's members in a row
  for (const auto& st : s.starts) {
    FlowDemands shared;
    for (const auto& d : st.shared) shared.push_back(d);
    FlowId first = 0;
    if (st.sms.size() == 1) {
      FlowSpec spec{st.bytes, st.cap, shared};
      spec.demands.push_back({st.sms[0], st.sm_weight});
      first = net.start(spec);
    } else {
      first = net.start_group({st.bytes, st.cap, shared}, {st.sms, st.sm_weight, 0}, [](std::size_t, std::size_t) {});
    }
    for (std::size_t m = 0; m < st.sms.size(); ++m) {
      PlainFlow p{st.cap, st.shared};
      p.demands.push_back({st.sms[m], st.sm_weight});
      members.push_back({first + FlowId(m), p});
    }
  }
  std::size_t compared = 0;
  for (int round = 0; round < 400 && net.active_flows() > 0; ++round) {
    std::vector<PlainFlow> plain;
    std::vector<FlowId> ids;
    for (const auto& m : members)
      if (!m.done) plain.push_back(m.plain), ids.push_back(m.id);
    std::vector<double> want = plain_rates(s.capacity, plain);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      INFO("flow " << ids[i] << " round " << round);
      CHECK(net.current_rate(ids[i]) == want[i]);
      ++compared;
    }
    net.advance_to(net.next_completion());
    for (FlowId id : net.take_finished())
      for (auto& m : members)
        if (m.id == id) m.done = true;
  }
  CHECK(compared > 0);
}

}  // namespace

TEST_CASE("flow filling: equals the plain algorithm bit for bit on 40 random networks") {
  std::mt19937_64 rng(20261126);
  for (int k = 0; k < 40; ++k) {
    INFO("network " << k);
    check_scenario(random_scenario(rng, 4 + k % 9, 6 + k % 23));
  }
}
