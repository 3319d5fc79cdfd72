#pragma once
// Helpers shared by the framework-pass tests (u6xx): sums over a graph and finding an op by name.
#include <doctest/doctest.h>

#include <string>

#include "ops/op_graph.h"

namespace hwsim::test {

// Sum of `measure` (op_flops, op_min_bytes, ...) over every op of `g`.
inline double total(const OpGraph& g, double (*measure)(const Op&)) {
  double sum = 0;
  for (OpVertex v : execution_order(g)) sum += measure(g[v]);
  return sum;
}

// The op called `name`; fails the test when there is none.
inline const Op& op_named(const OpGraph& g, const std::string& name) {
  for (OpVertex v : execution_order(g))
    if (g[v].name == name) return g[v];
  FAIL("no op " << name);
  static const Op none;
  return none;
}

}  // namespace hwsim::test
