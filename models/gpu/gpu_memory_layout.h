#pragma once
// How a GPU's caches are laid out beyond one L2: compute partitions each with a private L2 (AMD's
// XCDs: 8 on MI300X, 38 CUs and 4 MiB of L2 each) and an optional memory-side cache between the L2s
// and device memory (AMD's Infinity Cache / MALL, 256 MiB on MI300X). One partition and no
// memory-side cache (the defaults) is an NVIDIA GPU: one L2 shared by every SM, then HBM.
//
// memory.l2.size and memory.l2.bandwidth are CHIP TOTALS: each partition holds size / partitions
// and serves bandwidth / partitions, so `--set gpu.partitions=1` is the what-if of one shared L2
// of the same total size (docs/cdna.md).
namespace hwsim {

class Config;

struct GpuMemoryLayout {
  int partitions = 1;          // gpu.partitions: SMs are split evenly; partition p holds SMs
                               // [p·S, (p+1)·S), S = sm_count / partitions
  double mall_bytes = 0;       // memory.mall.size; 0 = no memory-side cache
  double mall_bandwidth = 0;   // bytes/s
  double mall_latency = 0;     // seconds, load-to-use of a hit
  double mall_joules_per_byte = 0;

  bool has_mall() const { return mall_bytes > 0; }

  // Throws a config error when the partitions do not divide the SMs, or a memory-side cache has
  // no bandwidth or latency.
  static GpuMemoryLayout from_config(const Config& config, int sm_count);
};

}  // namespace hwsim
