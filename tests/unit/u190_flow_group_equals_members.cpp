// A group flow (FlowNetwork::start_group) gives, bit for bit, what its members started one after
// another as separate flows give: every completion time and every resource's bytes and busy time
// are equal with ==, whether the members stay alike to the end or part ways (a member's private
// resource saturates while another's does not, and the group is split).
#include <doctest/doctest.h>

#include <vector>

#include "sim/engine/flow_network.h"

using namespace hwsim;

namespace {

constexpr int kSms = 6;

// A group of flows started at one instant: shared demands, one private SM each.
struct GroupStart {
  double at;  // start time
  double bytes, cap;
  std::vector<FlowDemand> shared;
  std::vector<int> sms;  // per member
  double sm_weight;
};

struct Outcome {
  std::vector<std::pair<int, double>> finished;  // (member id, completion time), in completion order
  std::vector<double> bytes, busy;               // per resource at the end
  bool operator==(const Outcome&) const = default;
};

// Runs the starts on a network with L2, HBM and kSms SMs: each group either as one group flow
// (`grouped`) or as its members one after another. `sm_load` adds a plain flow on SM 0 alone
// (another kernel's CTA), which makes the SMs unlike.
Outcome run(const std::vector<GroupStart>& starts, bool grouped, double sm_load) {
  FlowNetwork net;
  ResourceId l2 = net.add_resource("l2", 7e12), hbm = net.add_resource("hbm", 3.35e12);
  std::vector<ResourceId> sm_ids;
  for (int s = 0; s < kSms; ++s) sm_ids.push_back(net.add_resource("sm", 1.0));
  auto resolve = [&](FlowDemand d) { return FlowDemand{d.resource == 0 ? l2 : hbm, d.weight}; };
  std::vector<std::vector<ResourceId>> member_sms(starts.size());
  Outcome out;
  std::size_t next = 0;
  int first_id = 0;
  std::vector<int> first_member(starts.size());
  for (std::size_t g = 0; g < starts.size(); ++g) first_member[g] = first_id, first_id += int(starts[g].sms.size());
  auto start = [&](std::size_t g) {
    const GroupStart& s = starts[g];
    FlowDemands shared;
    for (const auto& d : s.shared) shared.push_back(resolve(d));
    for (int sm : s.sms) member_sms[g].push_back(sm_ids[std::size_t(sm)]);
    if (grouped) {
      FlowSpec spec{s.bytes, s.cap, shared};
      net.start_group(spec, {member_sms[g], s.sm_weight, 0}, [&, g](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) out.finished.emplace_back(first_member[g] + int(i), net.now());
      });
      return;
    }
    for (std::size_t i = 0; i < s.sms.size(); ++i) {
      FlowSpec spec{s.bytes, s.cap, shared};
      spec.demands.push_back({member_sms[g][i], s.sm_weight});
      net.start(spec, [&, g, i] { out.finished.emplace_back(first_member[g] + int(i), net.now()); });
    }
  };
  if (sm_load > 0) net.start({sm_load, FlowSpec{}.max_rate, {{sm_ids[0], 1.0}}});
  while (next < starts.size() || net.active_flows() > 0) {
    double t = net.next_completion();
    if (next < starts.size() && starts[next].at <= t) {
      net.advance_to(starts[next].at);
      start(next++);
      continue;
    }
    net.advance_to(t);
    for (const auto& f : net.take_finished_callbacks()) f();
  }
  for (ResourceId r = 0; r < ResourceId(2 + kSms); ++r) {
    out.bytes.push_back(net.bytes_through(r));
    out.busy.push_back(net.busy_seconds(r));
  }
  return out;
}

void check_same(const std::vector<GroupStart>& starts, double sm_load = 0) {
  Outcome grouped = run(starts, true, sm_load), separate = run(starts, false, sm_load);
  std::size_t members = 0;
  for (const auto& s : starts) members += s.sms.size();
  CHECK(separate.finished.size() == members + 0);
  CHECK(grouped.finished == separate.finished);  // the same order and the same times, exactly
  CHECK(grouped.bytes == separate.bytes);
  CHECK(grouped.busy == separate.busy);
}

}  // namespace

TEST_CASE("flow groups: eight alike CTAs on four SMs equal eight flows, bit for bit") {
  // Weights that do not add exactly in binary (0.1, 1/3): the sums must be done as the members' are.
  check_same({{0, 3e6, 4.1e10, {{0, 1.0}, {1, 0.1}}, {0, 1, 2, 3, 0, 1, 2, 3}, 1.0 / 3e11}});
}

TEST_CASE("flow groups: groups started at other times and a memory-only flow between them") {
  check_same({{0, 2e6, 3e10, {{0, 1.0}, {1, 1.0 / 3}}, {0, 1, 2, 3, 4, 5}, 1.0 / 2.5e11},
              {1e-6, 7e6, FlowSpec{}.max_rate, {{1, 0.7}}, {5}, 0},
              {2.5e-6, 1e6, 5e10, {{0, 1.0}, {1, 0.05}}, {0, 1, 2}, 1.0 / 4e11}});
}

TEST_CASE("flow groups: members whose SMs part ways are split, and still equal the separate flows") {
  // SM 0 is also busy with another flow: the member there is held back by its SM, the others are
  // not (their SM time per byte is high enough to bind only where the SM is shared).
  check_same({{0, 4e6, FlowSpec{}.max_rate, {{0, 1.0}, {1, 0.3}}, {0, 1, 2, 3}, 1.0 / 1.5e11}}, 2e-6);
}

TEST_CASE("flow groups: pure math (the SMs alone) and a saturated SM shared by two members") {
  check_same({{0, 5e-6, FlowSpec{}.max_rate, {}, {0, 0, 1, 2}, 1.0},
              {1e-6, 3e6, 2e10, {{0, 1.0}, {1, 0.2}}, {1, 2, 3, 4, 5}, 1.0 / 2e11}});
}
