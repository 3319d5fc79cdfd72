// FlowNetwork's rates are, bit for bit, those of progressive filling in levels as defined here:
// every round, each resource's saturation level is computed afresh from exact sums,
//   (capacity × unit − Σ frozen rate × weight × unit) ÷ Σ unfrozen weight × unit
// kept to 30 significant bits (rounded down) and not below the level,
// the lowest of those levels and of the unfrozen flows' caps is the new level, and every flow at
// its cap or crossing (with weight) a resource at exactly that level freezes there. Random networks
// with shared resources (L2, HBM), private SMs, uneven caps and weights that do not add exactly,
// groups of alike flows (expanded to their members here, as they stand for them; splits
// included), flows finishing one by one; with the local refill (flow_local.cpp) on and off, and
// with shared resources loose enough that the local refill mostly suffices. A faster filling must
// keep this test green: the golden outputs rest on this arithmetic.
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

struct PlainFlow {
  double cap;
  std::vector<FlowDemand> demands;
};

// A level kept to 30 significant bits, rounded down (toward zero).
double to_30_bits(double x) {
  if (!(x > 0) || x == kInf) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // x = m × 2^e, m in [0.5, 1)
  return std::ldexp(std::floor(std::ldexp(m, 30)), e - 30);
}

// The definition: every round, every resource's level from the flows as they stand.
std::vector<double> plain_rates(const std::vector<double>& capacity, const std::vector<PlainFlow>& flows) {
  const std::size_t n = flows.size(), nr = capacity.size();
  using Sum = ExactSum<94, 16>;  // FlowNetwork::WeightSum: in units of the first capacity
  std::vector<double> rate(n, 0), unit(nr);
  for (std::size_t r = 0; r < nr; ++r) unit[r] = capacity[r] > 0 ? 1.0 / capacity[r] : 1.0;
  std::vector<char> frozen(n, 0);
  double level = 0;
  for (;;) {
    std::vector<Sum> unfrozen(nr), load(nr);
    double next = kInf;
    bool any = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (!frozen[i]) any = true, next = std::min(next, flows[i].cap);
      for (const auto& d : flows[i].demands) {
        if (!(d.weight > 0)) continue;
        if (frozen[i]) load[d.resource].add(rate[i] * d.weight * unit[d.resource]);
        else unfrozen[d.resource].add(d.weight * unit[d.resource]);
      }
    }
    if (!any) break;
    std::vector<double> at(nr, kInf);
    for (std::size_t r = 0; r < nr; ++r)
      if (!unfrozen[r].zero())
        next = std::min(next, at[r] = std::max(level, to_30_bits((capacity[r] * unit[r] - load[r].value()) / unfrozen[r].value())));
    if (next == kInf) {  // nothing limits the rest: they complete at once (rate 0 here)
      for (std::size_t i = 0; i < n; ++i) frozen[i] = 1;
      break;
    }
    level = next;
    for (std::size_t i = 0; i < n; ++i) {
      if (frozen[i]) continue;
      bool full = flows[i].cap <= level;
      for (const auto& d : flows[i].demands) full = full || (d.weight > 0 && at[d.resource] == level);
      if (full) frozen[i] = 1, rate[i] = level;
    }
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

Scenario random_scenario(std::mt19937_64& rng, int sms, int starts, double shared_scale) {
  std::uniform_real_distribution<double> u(0, 1);
  Scenario s;
  s.capacity = {7e12 * (0.5 + u(rng)) * shared_scale, 3.35e12 * (0.5 + u(rng)) * shared_scale};
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
FlowNetwork::FillCounts check_scenario(const Scenario& s, bool local) {
  FlowNetwork::local_filling(local);
  FlowNetwork net;
  for (std::size_t r = 0; r < s.capacity.size(); ++r)
    net.add_resource("r", s.capacity[r], r < 2 ? ResourceScope::shared : ResourceScope::local);
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
  FlowNetwork::local_filling(true);
  return net.fill_counts();
}

}  // namespace

TEST_CASE("flow filling: equals the plain algorithm bit for bit on 40 random networks, local refill on and off") {
  std::mt19937_64 rng(20261126);
  FlowNetwork::FillCounts tight, loose;
  for (int k = 0; k < 40; ++k) {
    INFO("network " << k);
    // Every third network's shared resources are 30 times wider: they seldom limit.
    double scale = k % 3 == 0 ? 30.0 : 1.0;
    Scenario s = random_scenario(rng, 4 + k % 9, 6 + k % 23, scale);
    FlowNetwork::FillCounts c = check_scenario(s, true);
    auto& into = scale > 1 ? loose : tight;
    into.whole += c.whole, into.local += c.local;
    FlowNetwork::FillCounts whole = check_scenario(s, false);
    CHECK(whole.local == 0);
  }
  // Both ways were taken: local refills that sufficed, and whole fillings where HBM limited.
  CHECK(loose.local > loose.whole);
  CHECK(tight.whole > 0);
  CHECK(tight.local > 0);
}
