#pragma once
// What a run on a system of devices adds to a RunResult (RunResult::system): the devices used,
// what each simulated device did, the links, and the collectives. Filled by app/system_simulate,
// every figure computed once there; printers only format.
#include <cstdint>
#include <string>
#include <vector>

namespace hwsim {

// One simulated device: the representative of a pipeline stage (its tp/ep/dp ranks do the same
// work by symmetry). Breakdown seconds sum to the run's time: idle is time without work (waiting
// for another stage: the pipeline bubble, or for a collective's peers).
struct DeviceUse {
  std::string label;           // "stage 0: ranks 0–7"
  std::int64_t ranks = 0;      // devices it stands for
  double compute = 0, memory = 0, communication = 0, overhead = 0, idle = 0;  // seconds
  double communication_overlapped = 0;  // collective seconds hidden behind its compute
  double flops = 0;            // one device's
  double memory_bytes = 0;     // one device's main-memory traffic
  double energy = 0;           // one device's: its records' and its idle power over the time none
                               // ran (links apart)
  double memory_held = 0;      // bytes the workload keeps on it (weights, KV, activations, state)
  double memory_capacity = 0;  // its main memory
};

struct LinkLoad {
  std::string name;            // "dev0→node0.switch8"
  double capacity = 0;         // bytes/s usable (link efficiency applied)
  double bytes = 0;
  double utilisation = 0;      // bytes / (capacity · run seconds)
};

// One collective of a run of collectives alone (the `collective:` workload, a step each): what
// nccl-tests prints per size.
struct CollectivePoint {
  double bytes = 0, ranks = 0, seconds = 0;
  double algbw = 0, busbw = 0;  // bytes/s
  double link_bytes = 0;
  std::string op, algorithm, dtype;  // dtype as the record names it ("fp32")
};

struct SystemMetrics {
  bool present = false;
  std::string name;            // the system's name
  std::string chip;            // the chip's name
  std::string fabric;          // "switch: 18 nvlink links of 50 GB/s per device"
  std::int64_t devices = 0;    // in the system
  std::int64_t devices_used = 0;
  std::string layout;          // "tp=8" …
  std::vector<DeviceUse> stages;
  double collective_seconds = 0;   // summed over the collective records
  double communication_exposed = 0;// of which no compute ran beside it (per stage, summed)
  double link_bytes = 0, link_energy = 0;
  std::vector<LinkLoad> busiest_links;  // the most utilised link directions, at most 8
  double flops = 0;            // all devices: each stage's FLOPs × its ranks
  double memory_bytes = 0;     // all devices: each stage's main-memory traffic × its ranks
  double energy = 0;           // all devices and links
  // A run whose every step is one collective (the nccl-tests curve): one point per step, in order;
  // empty otherwise.
  std::vector<CollectivePoint> collectives;
  bool collectives_only() const { return !collectives.empty(); }
};

}  // namespace hwsim
