// What a CTA does once placed (TileMachine): its operands go through the caches of its partition
// (traffic_of), which gives the bytes each memory level serves; its plan (the flows and the fill)
// follows from those figures and the kernel's alone (route_cta, plan_cta). CTAs of one kernel
// whose traffic has the same bits have the same plan: start_cta computes it once for a run of
// them, and their group once (flush_group).
#include "models/gpu/tile/tile_machine.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace hwsim {

namespace {
bool same(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }
bool same(const LevelBytes& a, const LevelBytes& b) {
  return same(a.l2_miss, b.l2_miss) && same(a.l2_writeback, b.l2_writeback) && same(a.mall_miss, b.mall_miss) &&
         same(a.mall_writeback, b.mall_writeback);
}
}  // namespace

bool TileMachine::CtaTraffic::same_bits(const CtaTraffic& o) const {
  return partition == o.partition && same(flops, o.flops) && same(scratch_bytes, o.scratch_bytes) &&
         same(read_bytes, o.read_bytes) && same(write_bytes, o.write_bytes) && same(reads, o.reads) &&
         same(writes, o.writes);
}

void TileMachine::CtaPlan::set_key() {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a over the figures' bits
  auto mix = [&](double x) { h = (h ^ std::bit_cast<std::uint64_t>(x)) * 0x100000001b3ULL; };
  auto mix_flow = [&](const FlowSpec& f) {
    mix(f.bytes), mix(f.max_rate);
    f.demands.for_each([&](const FlowDemand& d) { mix(double(d.resource)), mix(d.weight); });
  };
  mix(fill), mix(main_sm_weight), mix(epilogue_sm_weight);
  mix_flow(main), mix_flow(epilogue);
  key = h;
}

bool TileMachine::CtaPlan::operator==(const CtaPlan& o) const {
  return key == o.key && fill == o.fill && main.bytes == o.main.bytes && main.max_rate == o.main.max_rate &&
         main.demands == o.main.demands && main_sm_weight == o.main_sm_weight && epilogue.bytes == o.epilogue.bytes &&
         epilogue.max_rate == o.epilogue.max_rate && epilogue.demands == o.epilogue.demands &&
         epilogue_sm_weight == o.epilogue_sm_weight;
}

// The CTA's operands through the caches of its SM's partition, in order (the caches change).
TileMachine::CtaTraffic TileMachine::traffic_of(const PackedKernel& packed, const PackedKernel::Cta& cta, int sm) {
  CtaTraffic t;
  t.partition = chip_.layout.partitions > 1 ? chip_.partition_of_sm(sm) : 0;
  t.flops = cta.flops, t.scratch_bytes = cta.scratch_bytes;
  const std::span<const OperandRead> operands(packed.operands);
  caches_.read_all(t.partition, operands.subspan(cta.reads, cta.read_count), t.reads, t.read_bytes);
  caches_.write_all(t.partition, operands.subspan(cta.writes, cta.write_count), t.writes, t.write_bytes);
  return t;
}

// What one CTA's operands cost beyond its SM: bytes per level as flow demands per byte read (main)
// and per byte written (epilogue), and the latency of its first data. Without a memory-side cache:
// l2, hbm (the arithmetic NVIDIA chips always had).
TileMachine::CtaRoute TileMachine::route_cta(const Kernel& k, const CtaTraffic& t) const {
  ResourceId l2 = l2_resources_[std::size_t(t.partition)];
  const LevelBytes &reads = t.reads, &writes = t.writes;
  CtaRoute out;
  out.read_bytes = t.read_bytes, out.write_bytes = t.write_bytes;
  double read_bytes = out.read_bytes, total_out = out.write_bytes + t.scratch_bytes;
  double miss_fraction = read_bytes > 0 ? reads.l2_miss / read_bytes : 0;
  auto per_read = [&](double bytes) { return read_bytes > 0 ? bytes / read_bytes : 0; };
  auto per_write = [&](double bytes) { return total_out > 0 ? bytes / total_out : 0; };
  if (!caches_.has_mall()) {
    double hbm_per_byte = per_read(reads.l2_miss + reads.l2_writeback);
    out.main.push_back({l2, k.l2_read_factor});
    out.main.push_back({hbm_resource_, hbm_per_byte * k.hbm_access_cost});
    out.epilogue.push_back({l2, 1.0});
    out.epilogue.push_back({hbm_resource_, per_write(writes.l2_writeback)});
    out.latency = chip_.l2_latency + miss_fraction * (chip_.hbm_latency - chip_.l2_latency);
    return out;
  }
  double hbm_per_byte = per_read(reads.mall_miss + reads.mall_writeback);
  out.main = {{l2, k.l2_read_factor}, {mall_resource_, per_read(reads.mall_bytes())},
              {hbm_resource_, hbm_per_byte * k.hbm_access_cost}};
  out.epilogue = {{l2, 1.0}, {mall_resource_, per_write(writes.mall_bytes())},
                  {hbm_resource_, per_write(writes.mall_writeback)}};
  out.latency = chip_.l2_latency + miss_fraction * (chip_.layout.mall_latency - chip_.l2_latency) +
                per_read(reads.mall_miss) * (chip_.hbm_latency - chip_.layout.mall_latency);
  return out;
}

// What the CTA will do: its flows, from its operands' levels, and its fill; `overhead` is its
// fixed cost (SM-seconds), which the kernel's overhead counts.
TileMachine::CtaPlan TileMachine::plan_cta(const Kernel& k, const CtaTraffic& traffic, double& overhead) const {
  CtaRoute route = route_cta(k, traffic);
  double read_bytes = route.read_bytes, write_bytes = route.write_bytes;
  double port = chip_.sm_port_bytes_per_clock * chip_.clock_hz;
  CtaPlan plan;

  plan.main.bytes = read_bytes;
  // SM time per operand byte: math or the SM's L2 port, whichever is slower (they overlap).
  plan.main_sm_weight = read_bytes > 0 ? std::max(traffic.flops / read_bytes / k.sm_flop_rate, 1.0 / port) : 0;
  plan.main.demands = route.main;
  double latency = route.latency;
  if (k.bytes_in_flight > 0) plan.main.max_rate = k.bytes_in_flight / latency;
  double math_alone = k.sm_flop_rate > 0 ? traffic.flops / k.sm_flop_rate : 0;
  if (read_bytes == 0) {
    // Pure math: an SM-time flow with no memory traffic.
    plan.main.bytes = math_alone;
    plan.main.max_rate = std::numeric_limits<double>::infinity();
    plan.main.demands = {};
    plan.main_sm_weight = 1.0;
  }

  plan.epilogue.bytes = write_bytes + traffic.scratch_bytes;
  double total_out = plan.epilogue.bytes;
  plan.epilogue.demands = route.epilogue;
  plan.epilogue_sm_weight = 1.0 / port;
  double epilogue_alone = total_out / port;
  // Pipeline fill: set-up, then the latency of the first data from wherever it is.
  plan.fill = k.prologue + latency;
  overhead = plan.fill + epilogue_alone + chip_.cta_overhead;
  plan.set_key();
  return plan;
}

// Open addressing on the plan's key over the groups formed at this instant (group_index_: group
// + 1, 0 empty; sized by flush_group).
std::size_t TileMachine::group_for(const CtaPlan& plan) {
  std::size_t mask = group_index_.size() - 1;
  for (std::size_t i = std::size_t(plan.key) & mask;; i = (i + 1) & mask) {
    std::size_t g = group_index_[i];
    if (g == 0) {
      if (groups_used_ == group_pool_.size()) group_pool_.emplace_back();
      group_pool_[groups_used_].plan = plan;
      group_pool_[groups_used_].size = 0;
      group_index_[i] = ++groups_used_;
      return groups_used_ - 1;
    }
    if (group_pool_[g - 1].plan == plan) return g - 1;
  }
}

}  // namespace hwsim
