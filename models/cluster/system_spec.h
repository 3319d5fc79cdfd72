#pragma once
// A system as the cluster model reads it: typed values from a system file (never TOML). Built once
// by from_config; the topology builder, router and collective planner take it from here.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hwsim {

class Config;

enum class ScaleUpTopology { switch_fabric, all_to_all, pcie, torus };

struct LinkClass {
  std::string technology;     // "nvlink", "pcie", "ici", "infinity_fabric", "network"
  double bandwidth = 0;       // bytes/s per direction, one link
  double latency = 0;         // seconds per hop
  double energy_per_byte = 0; // joules
};

// What a collective library adds on top of the links (NCCL-like; docs/systems.md).
struct CollectiveTuning {
  double launch_overhead = 0;       // seconds per call
  double link_efficiency = 1;       // Simple protocol's share of a scale-up link's bandwidth
  double network_efficiency = 1;    // ... and of a network (scale-out) link's
  double efficiency_of(bool network) const { return network ? network_efficiency : link_efficiency; }
  // Per device, the bytes/s its collective kernels move (channels × per-channel rate; 0 = no
  // limit): sending and receiving both cost, so a device that does both shares it.
  double engine_bandwidth = 0;
  // Share of a device's compute units a running collective holds (collective.compute_share): device
  // work beside an asynchronous collective is slowed by share / (1 − share) of their overlap.
  double compute_share = 0;
  std::array<double, 3> base_latency{};  // per protocol (LL, LL128, Simple): once per collective
  std::array<double, 3> step_latency{};  // per protocol: each algorithm step
  std::array<double, 3> efficiency{};    // per protocol, relative to Simple
  std::array<double, 3> network_step_latency{};  // per protocol: extra per step crossing the network
  bool low_latency_protocols = true;  // LL and LL128 exist (else Simple only)
  // NVLS: the scale-up switches reduce and multicast (collective.nvls.*).
  bool nvls = false;
  double nvls_efficiency = 1;    // share of the bulk link rate (link_efficiency) NVLS transfers reach
  double nvls_base_latency = 0;  // seconds once per NVLS collective (instead of the protocol's)
};

struct SystemSpec {
  std::string name, description, path;
  std::string chip;                  // chip name or file, every device
  std::int64_t nodes = 1;
  // scale-up
  ScaleUpTopology topology = ScaleUpTopology::switch_fabric;
  std::int64_t devices_per_node = 1;
  std::vector<std::int64_t> torus;   // dimensions (torus only)
  bool wraparound = true;
  std::int64_t links = 1;            // per device
  std::int64_t switches = 1;
  double host_bandwidth = 0;         // pcie host bridge, 0 = unlimited
  bool p2p = true;
  LinkClass scale_up;
  // scale-out
  bool network = false;
  std::int64_t nics = 1;
  std::int64_t switch_radix = 64;
  bool rail_optimised = true;
  LinkClass scale_out;
  CollectiveTuning tuning;

  std::int64_t devices() const { return nodes * devices_per_node; }
  static SystemSpec from_config(const Config& config);
};

}  // namespace hwsim
