// The flow network's sums (ExactSum) do not depend on the order of their terms: random terms of
// very different sizes give the same sum in any order, a term taken n times at once equals n
// additions, a term added and subtracted leaves nothing; a term out of range is an error, not a
// silent wrong sum. And a network's byte counts are those of its set of flows: the same flows
// started in another order move the same bytes, to the last bit, and a finished flow counts its
// whole size.
#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "sim/engine/flow_network.h"

using namespace hwsim;

TEST_CASE("exact sums: any order, taken n times at once, added and subtracted") {
  using Sum = ExactSum<94, 16>;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> terms;
  for (int i = 0; i < 500; ++i) terms.push_back(u(rng) * (i % 3 == 0 ? 1e-12 : i % 3 == 1 ? 1.0 : 1e3));
  Sum forward, backward, shuffled;
  for (double t : terms) forward.add(t);
  for (auto it = terms.rbegin(); it != terms.rend(); ++it) backward.add(*it);
  std::shuffle(terms.begin(), terms.end(), rng);
  for (double t : terms) shuffled.add(t);
  CHECK(forward.value() == backward.value());
  CHECK(forward.value() == shuffled.value());
  double plain = 0;
  for (double t : terms) plain += t;
  CHECK(forward.value() == doctest::Approx(plain).epsilon(1e-12));  // and it is the sum

  Sum once, many;
  once.add(0.3, 1000);
  for (int i = 0; i < 1000; ++i) many.add(0.3);
  CHECK(once.value() == many.value());
  once.subtract(Sum::quanta(0.3), 1000);
  CHECK(once.zero());

  CHECK_THROWS_AS(Sum::quanta(1e30), std::logic_error);
  CHECK_THROWS_AS(Sum::quanta(std::numeric_limits<double>::quiet_NaN()), std::logic_error);
}

namespace {
// Bytes through each resource after flows with awkward sizes and weights run to the end, started
// in the given order.
std::vector<double> bytes_after(const std::vector<int>& order) {
  FlowNetwork net;
  ResourceId l2 = net.add_resource("l2", 7e12), hbm = net.add_resource("hbm", 3.35e12), sm = net.add_resource("sm", 1);
  for (int k : order) {
    double bytes = 1e5 / 3 * (k + 1), weight = 0.1 * (k + 1) / 7;
    net.start({bytes, 4e11 + 1e9 * k, {{l2, 1.0}, {hbm, weight}, {sm, 1.3e-12 * (k + 1)}}});
  }
  while (net.active_flows() > 0) {
    net.advance_to(net.next_completion());
    net.take_finished();
  }
  return {net.bytes_through(l2), net.bytes_through(hbm), net.bytes_through(sm)};
}
}  // namespace

TEST_CASE("flow bytes: the same flows in another order move the same bytes, bit for bit") {
  std::vector<int> order = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<double> first = bytes_after(order);
  std::reverse(order.begin(), order.end());
  CHECK(bytes_after(order) == first);
  std::swap(order[2], order[7]);
  CHECK(bytes_after(order) == first);
  double l2 = 0;
  for (int k = 0; k < 10; ++k) l2 += 1e5 / 3 * (k + 1);
  CHECK(first[0] == doctest::Approx(l2).epsilon(1e-15));  // each finished flow counts its whole size
}
