#pragma once
// Helpers for the system (models/cluster) unit tests: a shipped system file loaded as a
// SystemSpec, its Topology, and a Fabric over it (SystemC modules are elaborated, never started:
// plans and routes need no sc_start), and every round of a collective plan collected at once.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "models/cluster/collective_plan.h"
#include "models/cluster/fabric.h"
#include "models/cluster/routing.h"
#include "models/cluster/system_spec.h"
#include "models/cluster/topology.h"
#include "ops/collective.h"
#include "sim/config/config.h"
#include "sim/engine/systemc.h"

namespace hwsim::test {

// Absolute path of a shipped system file.
inline std::string system_file(const std::string& name) {
  return std::string(HWSIM_SOURCE_DIR) + "/configs/systems/" + name + ".toml";
}

inline SystemSpec system_spec(const std::string& name, const std::vector<std::string>& overrides = {}) {
  return SystemSpec::from_config(load_system_config(system_file(name), overrides));
}

// A system with its links: the spec and the topology outlive the fabric (it keeps references,
// and a plan's transfers() refers to the spec). The topology is built in place: a Topology keeps
// edge descriptors that point into its own graph, so it must not be copied.
struct TestSystem {
  TestSystem(SystemSpec s, const char* module_name)
      : spec(std::move(s)), topology(build_topology(spec)),
        fabric(std::make_unique<Fabric>(module_name, topology, spec.tuning)) {}
  SystemSpec spec;
  Topology topology;
  std::unique_ptr<Fabric> fabric;
};

inline std::unique_ptr<TestSystem> make_system(const std::string& name, const std::vector<std::string>& overrides = {},
                                               const char* module_name = "fabric") {
  init_systemc();
  return std::make_unique<TestSystem>(system_spec(name, overrides), module_name);
}

inline CollectiveOp collective(CollectiveKind kind, double bytes, std::int64_t ranks, std::string algo = "auto",
                               std::string proto = "auto") {
  CollectiveOp c;
  c.kind = kind;
  c.bytes = bytes;
  c.ranks = ranks;
  c.algo = std::move(algo);
  c.proto = std::move(proto);
  return c;
}

// Ranks first, first + 1, ..., first + n - 1 in one group.
inline RankGroups one_group(std::int64_t n, std::int64_t first = 0) {
  std::vector<std::int64_t> g;
  for (std::int64_t i = 0; i < n; ++i) g.push_back(first + i);
  return {g};
}

// Every round's transfers, round by round.
inline std::vector<std::vector<Transfer>> rounds_of(const CollectivePlan& plan) {
  std::vector<std::vector<Transfer>> rounds(std::size_t(plan.rounds));
  for (std::int64_t r = 0; r < plan.rounds; ++r) plan.transfers(r, rounds[std::size_t(r)]);
  return rounds;
}

inline bool has_transfer(const std::vector<Transfer>& round, std::int64_t from, std::int64_t to, double bytes) {
  for (const auto& t : round)
    if (t.from == from && t.to == to && t.bytes == doctest::Approx(bytes)) return true;
  return false;
}

}  // namespace hwsim::test
