#include "models/gpu/tile/tile_machine.h"

#include <algorithm>
#include <bit>
#include <array>
#include <limits>
#include <stdexcept>

namespace hwsim {

PackedKernel PackedKernel::pack(Kernel kernel) {
  PackedKernel p;
  kernel.ctas.take(p.ctas, p.operands);
  p.kernel = std::move(kernel);
  return p;
}

TileMachine::TileMachine(sc_core::sc_module_name name, const GpuChip& chip)
    : sc_core::sc_module(name), chip_(chip), launch_time_(to_sc_time(chip.launch_overhead)), timers_("timers"),
      flows_("flows"),
      caches_(chip.layout.partitions, chip.l2_bytes, chip.layout.mall_bytes), schema_(schema(chip)) {
  auto& net = flows_.network();
  // The memory levels every SM crosses are shared: a change on one SM refills that SM's flows
  // alone while they do not limit (FlowNetwork).
  const auto shared = ResourceScope::shared;
  for (int p = 0; p < chip.layout.partitions; ++p)
    l2_resources_.push_back(net.add_resource("l2", chip.l2_bandwidth / chip.layout.partitions, shared));
  hbm_resource_ = net.add_resource("hbm", chip.usable_hbm_bandwidth(), shared);
  if (chip.layout.has_mall()) mall_resource_ = net.add_resource("mall", chip.layout.mall_bandwidth, shared);
  sms_.resize(std::size_t(chip.sm_count));
  ClockDomainResources clocked;
  for (int i = 0; i < chip.sm_count; ++i) clocked.sms.push_back(sms_[std::size_t(i)].resource = net.add_resource("sm", 1.0));
  clocked.resident_sm_seconds = [this] { return resident_sm_seconds(); };
  clocked.sm_tally = net.add_tally(clocked.sms);
  clocked.l2_tally = l2_tally_ = net.add_tally(l2_resources_);
  clocked.hbm_tally = hbm_tally_ = net.add_tally(std::span(&hbm_resource_, 1));
  if (chip.layout.has_mall()) clocked.mall_tally = mall_tally_ = net.add_tally(std::span(&mall_resource_, 1));
  clock_ = std::make_unique<GpuClockDomain>("clock", chip, flows_, std::move(clocked));
}

// Between kernels the machine is idle: the flow network, the timers and the resident SM-seconds
// restart at zero, and the clock domain counts from there, so a kernel is simulated in times and
// sums measured from its own start (the same bits at any absolute time: kernel replay). Only the
// span since the last kernel is observed first, as it was.
void TileMachine::restart_frame() {
  clock_->observe();
  if (flows_.network().active_flows() > 0 || !timers_.idle()) return;  // never: kernels run one after another
  flows_.restart(), timers_.restart();
  resident_closed_ = 0;
  clock_->restart_counters();
}

double TileMachine::resident_sm_seconds() const {
  double total = resident_closed_, now = flows_.now();
  for (const auto& s : sms_)
    if (s.active > 0) total += now - s.busy_since;
  return total;
}

void TileMachine::sm_enter(int sm) {
  auto& s = sms_[std::size_t(sm)];
  if (s.active++ == 0) s.busy_since = instant_;
}

void TileMachine::sm_leave(int sm) {
  auto& s = sms_[std::size_t(sm)];
  if (--s.active == 0) s.busy_total += instant_ - s.busy_since, resident_closed_ += instant_ - s.busy_since;
}

std::shared_ptr<const RecordSchema> TileMachine::schema() {
  static const auto schema = std::make_shared<const RecordSchema>(RecordSchema{
      {"l2", "hbm"},
      {{"ctas", Rollup::sum}, {"ctas_per_sm", Rollup::none}, {"sms_used", Rollup::none}, {"waves", Rollup::none}},
      gpu_energy_part_names(false)});
  return schema;
}

std::shared_ptr<const RecordSchema> TileMachine::schema(const GpuChip& chip) {
  if (chip.vocabulary.is_nvidia() && !chip.layout.has_mall()) return schema();
  const GpuVocabulary& v = chip.vocabulary;
  std::vector<std::string> levels = {"l2", "hbm"};
  if (chip.layout.has_mall()) levels = {"l2", "mall", "hbm"};
  return std::make_shared<const RecordSchema>(RecordSchema{
      levels,
      {{v.detail_groups, Rollup::sum}, {v.detail_groups_per_unit, Rollup::none}, {v.detail_units_used, Rollup::none},
       {v.detail_waves, Rollup::none}},
      gpu_energy_part_names(chip.layout.has_mall())});
}

std::vector<WorkRecord> TileMachine::run_kernels(const std::vector<Kernel>& kernels) {
  std::vector<WorkRecord> records;
  records.reserve(kernels.size());
  double step_start = sim_now();
  for (const Kernel& kernel : kernels)
    records.push_back(run_kernel(PackedKernel::pack(kernel), step_start, &kernel == &kernels.back()));
  return records;
}

WorkRecord TileMachine::kernel_record(const KernelSummary& summary, double step_start) const {
  const Kernel& kernel = summary.kernel;
  const std::size_t ctas = summary.ctas;
  WorkRecord r;
  r.name = kernel.name;
  r.op_class = kernel.op_class;
  r.config = kernel.config;
  r.dtype = std::string(dtype_name(kernel.dtype));
  r.start = sim_now() - step_start;
  r.flops = kernel.flops;
  r.min_bytes = kernel.min_bytes;
  r.peak_flop_rate = kernel.peak_flop_rate;
  r.peak_memory_bandwidth = chip_.hbm_bandwidth;
  r.launch = chip_.launch_overhead;
  // Kind-specific details: the grid and how it fills the chip.
  int sms_used = int(std::min<std::size_t>(ctas, std::size_t(chip_.sm_count)));
  double waves = double(ctas) / (double(chip_.sm_count) * kernel.ctas_per_sm);
  r.schema = schema_;
  r.details = {double(ctas), double(kernel.ctas_per_sm), double(sms_used), waves};
  return r;
}

WorkRecord TileMachine::simulate_kernel(const PackedKernel& packed, WorkRecord record, double step_start,
                                        bool last_of_step) {
  auto& net = flows_.network();
  const Kernel& kernel = packed.kernel;
  const std::size_t ctas = packed.ctas.size();
  materialize();
  chain_ = Chain{};  // the kernel changes the caches
  restart_frame();
  KernelRun run;
  run.packed = &packed, run.kernel = &kernel, run.start = flows_.now();
  run.record = std::move(record);
  groups_used_ = 0;
  member_sm_.clear();
  member_resource_.clear();
  member_cta_.clear();
  member_sm_.reserve(ctas);
  member_resource_.reserve(ctas);
  member_cta_.reserve(ctas);
  for (auto& s : sms_) s.busy_total = 0;
  // Bytes through l2, hbm[, mall], in one pass over the flows.
  const TallyId levels[] = {l2_tally_, hbm_tally_, mall_tally_};
  auto level_bytes = [&](std::array<double, 3>& out) {
    net.tally_bytes(std::span(levels, chip_.layout.has_mall() ? 3 : 2), out);
  };
  std::array<double, 3> before{}, after{};
  level_bytes(before);

  clock_->kernel_started(packed);
  wait(launch_time_);
  run.free_slots.assign(std::size_t(chip_.sm_count), kernel.ctas_per_sm);
  if (ctas == 0) {
    kernel_done_.notify(sc_core::SC_ZERO_TIME);
  } else {
    dispatch(run);
    flush_group(run);
  }
  wait(kernel_done_);
  // A reduction split over CTAs: the last CTA combines the partials while the others are gone.
  if (kernel.grid_combine > 0) wait(to_sc_time(kernel.grid_combine));
  // A step ends with its dirty L2 data written back (the last kernel waits for it): what a
  // repeated step pays anyway, as the next one evicts it, and what keeps a kernel that streams out
  // more than L2 holds (a fill) from finishing before its bytes reach memory.
  if (chip_.layout.partitions > 1 || last_of_step) release_partitions();

  double end = flows_.now();
  net.advance_to(end);
  run.record.end = sim_now() - step_start;
  level_bytes(after);
  if (chip_.layout.has_mall())
    run.record.traffic = {after[0] - before[0], after[2] - before[2], after[1] - before[1]};
  else
    run.record.traffic = {after[0] - before[0], after[1] - before[1]};
  double busy = 0;
  for (const auto& s : sms_) busy += s.busy_total;
  last_times_ = KernelTimes{end - run.start, busy, run.overhead_sm_seconds};
  const auto& t = run.record.traffic;
  const bool mall = chip_.layout.has_mall();
  const KernelPower power = clock_->kernel_finished(kernel, busy, t[0], mall ? t[1] : 0, t[mall ? 2 : 1]);
  account(kernel, power, last_times_, run.record);
  return std::move(run.record);
}

// Energy from the clock domain (the kernel's activity priced at the clocks it ran at); time
// accounting in SM-seconds, math at that clock, then averaged over the SMs.
// Energy from the clock domain (the kernel's activity priced at the clocks it ran at); time
// accounting in SM-seconds, math at that clock, then averaged over the SMs.
void TileMachine::account(const Kernel& kernel, const KernelPower& power, const KernelTimes& times,
                          WorkRecord& record) const {
  const bool mall = chip_.layout.has_mall();
  for (std::size_t i = 0; i < kGpuEnergyParts; ++i)
    if (mall || GpuEnergyPart(i) != GpuEnergyPart::mall) record.energy_parts.push_back(power.energy.joules[i]);
  record.energy = power.energy.total();
  record.clock = power.clock;
  record.throttled = power.throttled;
  record.over_limit = power.over_limit;
  double sm_seconds = times.duration * chip_.sm_count;
  double clock_share = power.clock > 0 ? power.clock / chip_.clock_hz : 1.0;
  double math = kernel.sm_flop_rate > 0 ? kernel.flops / (kernel.sm_flop_rate * clock_share) : 0;
  double fixed = (chip_.launch_overhead + kernel.grid_combine) * chip_.sm_count;  // no CTA resident
  double overhead = fixed + times.overhead_sm_seconds / kernel.ctas_per_sm;
  double idle = std::max(0.0, sm_seconds - times.busy - fixed);
  math = std::min(math, std::max(0.0, sm_seconds - overhead - idle));
  double memory_wait = std::max(0.0, sm_seconds - math - overhead - idle);
  double n = chip_.sm_count;
  record.breakdown = TimeBreakdown{math / n, memory_wait / n, 0, overhead / n, idle / n};
}

void TileMachine::dispatch(KernelRun& run) {
  instant_ = flows_.now();
  if (chip_.layout.partitions > 1) return dispatch_partitioned(run);
  // Breadth-first over SMs, as the hardware's block scheduler spreads a grid.
  const std::size_t n = run.packed->ctas.size();
  bool placed = true;
  while (placed && run.next_cta < n) {
    placed = false;
    for (int sm = 0; sm < chip_.sm_count && run.next_cta < n; ++sm) {
      if (run.free_slots[std::size_t(sm)] == 0) continue;
      --run.free_slots[std::size_t(sm)];
      start_cta(run, run.next_cta++, sm);
      placed = true;
    }
  }
}

// AMD's dispatcher deals a grid's workgroups round-robin over the XCDs: CTA i belongs to partition
// i mod P, and each partition places its own CTAs, in order, breadth-first on its SMs.
void TileMachine::dispatch_partitioned(KernelRun& run) {
  std::size_t n = run.packed->ctas.size(), parts = std::size_t(chip_.layout.partitions);
  int per = chip_.sms_per_partition();
  if (run.next_in_partition.empty())
    for (std::size_t p = 0; p < parts; ++p) run.next_in_partition.push_back(p);
  for (std::size_t p = 0; p < parts; ++p) {
    std::size_t& next = run.next_in_partition[p];
    bool placed = true;
    while (placed && next < n) {
      placed = false;
      for (int sm = int(p) * per; sm < int(p + 1) * per && next < n; ++sm) {
        if (run.free_slots[std::size_t(sm)] == 0) continue;
        --run.free_slots[std::size_t(sm)];
        ++run.next_cta;
        start_cta(run, next, sm);
        next += parts;
        placed = true;
      }
    }
  }
}

// The release at the end of a kernel on a partitioned chip: each L2's dirty data goes to the next
// level (memory-side cache or device memory) before the next kernel may read it on another
// partition; one flow at the pace of the busiest level it crosses.
void TileMachine::release_partitions() {
  LevelBytes b = caches_.release();
  if (b.l2_writeback <= 0) return;
  FlowSpec flush;
  flush.bytes = b.l2_writeback;
  if (chip_.layout.has_mall())
    flush.demands = {{mall_resource_, 1.0}, {hbm_resource_, b.mall_writeback / b.l2_writeback}};
  else
    flush.demands = {{hbm_resource_, 1.0}};
  flows_.start(std::move(flush), [this]() { release_done_.notify(sc_core::SC_ZERO_TIME); });
  wait(release_done_);
}

namespace {
bool grouping = true;  // TileMachine::group_alike_ctas
}  // namespace

void TileMachine::group_alike_ctas(bool on) { grouping = on; }

// Places CTA `index` on `sm`; it joins a group when the instant's placements are over
// (flush_group), at once when groups are off.
void TileMachine::start_cta(KernelRun& run, std::size_t index, int sm) {
  sm_enter(sm);
  CtaTraffic traffic = traffic_of(*run.packed, run.packed->ctas[index], sm);
  bool again = run.has_last && traffic.same_bits(run.last_traffic);
  if (!again) {
    run.last_plan = plan_cta(*run.kernel, traffic, run.last_overhead);
    run.last_traffic = traffic, run.has_last = true;
  }
  run.overhead_sm_seconds += run.last_overhead;
  if (!again || placed_.empty()) placed_plans_.push_back(run.last_plan);
  placed_.push_back({std::uint32_t(placed_plans_.size() - 1), sm, std::uint32_t(index)});
  if (!grouping) flush_group(run);
}

// The CTAs placed at this instant, each with the group of its plan: each group's members
// in grid order, one span of the member arrays (reserved for the kernel's CTAs: the spans flows
// hold stay valid); the groups start their fill in the order they formed.
void TileMachine::flush_group(KernelRun& run) {
  if (placed_.empty()) return;
  std::size_t first_group = groups_used_;
  group_of_.resize(placed_.size());
  group_index_.assign(std::bit_ceil(2 * placed_.size()), 0);
  for (std::size_t i = 0; i < placed_.size(); ++i) {
    bool as_previous = i > 0 && placed_[i].plan == placed_[i - 1].plan;
    group_of_[i] = as_previous ? group_of_[i - 1] : group_for(placed_plans_[placed_[i].plan]);
    ++group_pool_[group_of_[i]].size;
  }
  std::size_t at = member_sm_.size();
  for (std::size_t g = first_group; g < groups_used_; ++g) {
    CtaGroup& group = group_pool_[g];
    group.run = &run;
    group.first = at;
    at += group.size;
    group.size = 0;  // counts its members again as they are placed below
  }
  member_sm_.resize(at);
  member_resource_.resize(at);
  member_cta_.resize(at);
  for (std::size_t i = 0; i < placed_.size(); ++i) {
    CtaGroup& group = group_pool_[group_of_[i]];
    std::size_t k = group.first + group.size++;
    member_sm_[k] = placed_[i].sm;
    member_resource_[k] = sms_[std::size_t(placed_[i].sm)].resource;
    member_cta_[k] = placed_[i].cta;
  }
  placed_.clear();
  placed_plans_.clear();
  for (std::size_t g = first_group; g < groups_used_; ++g) {
    CtaGroup* group = &group_pool_[g];
    timers_.after(group->plan.fill, [this, group]() { start_main(*group); });
  }
}

// Callbacks hold two words (the machine and the group: std::function keeps them without
// allocating); members are numbered within their group.
void TileMachine::start_main(CtaGroup& g) {
  FlowMembers members{std::span<const ResourceId>(member_resource_.data() + g.first, g.size), g.plan.main_sm_weight, 0};
  flows_.start_group(g.plan.main, members, [this, g = &g](std::size_t begin, std::size_t end) { main_done(*g, begin, end); });
}

void TileMachine::main_done(CtaGroup& g, std::size_t begin, std::size_t end) {
  FlowMembers members{std::span<const ResourceId>(member_resource_.data() + g.first + begin, end - begin),
                      g.plan.epilogue_sm_weight, begin};
  flows_.start_group(g.plan.epilogue, members,
                     [this, g = &g](std::size_t b, std::size_t e) { epilogue_done(*g, b, e); });
}

void TileMachine::epilogue_done(CtaGroup& g, std::size_t begin, std::size_t end) {
  if (begin == 0 && end == g.size)  // the whole group, as almost always
    timers_.after(chip_.cta_overhead, [this, g = &g]() { finish_ctas(*g, 0, g->size); });
  else
    timers_.after(chip_.cta_overhead, [this, g = &g, begin, end]() { finish_ctas(*g, begin, end); });
}

// CTAs [begin, end) of the group are done; they retire with the others done at this instant.
void TileMachine::finish_ctas(CtaGroup& g, std::size_t begin, std::size_t end) {
  KernelRun& run = *g.run;
  for (std::size_t i = g.first + begin; i < g.first + end; ++i) finishing_.push_back({member_cta_[i], member_sm_[i]});
  if (run.retire_armed) return;
  run.retire_armed = true;
  timers_.after(0, [this, r = &run]() { retire(*r); });  // after every timer due now
}

// The CTAs done at this instant leave in grid order; each freed slot takes the next CTA at once,
// as the hardware's block scheduler does. The order depends on which CTAs are done, not on how
// they were grouped.
void TileMachine::retire(KernelRun& run) {
  run.retire_armed = false;
  instant_ = flows_.now();
  sort_finishing();
  for (const Finishing& f : finishing_) {
    sm_leave(f.sm);
    ++run.free_slots[std::size_t(f.sm)];
    ++run.finished;
    if (run.finished == run.packed->ctas.size()) {
      kernel_done_.notify(sc_core::SC_ZERO_TIME);
      break;
    }
    refill(run, f.sm);
  }
  finishing_.clear();
  flush_group(run);
}

// finishing_ is a run of CTAs in grid order per group part done (finish_ctas appends a group's
// members in order): the runs are merged pairwise, O(n log runs), into grid order.
void TileMachine::sort_finishing() {
  auto before = [](const Finishing& a, const Finishing& b) { return a.cta < b.cta; };
  run_ends_.clear();
  for (std::size_t i = 1; i < finishing_.size(); ++i)
    if (before(finishing_[i], finishing_[i - 1])) run_ends_.push_back(i);
  if (run_ends_.empty()) return;
  run_ends_.push_back(finishing_.size());
  while (run_ends_.size() > 1) {
    merged_.clear();
    std::size_t begin = 0, kept = 0;
    for (std::size_t k = 0; k < run_ends_.size(); k += 2) {
      std::size_t mid = run_ends_[k], end = k + 1 < run_ends_.size() ? run_ends_[k + 1] : mid;
      std::merge(finishing_.begin() + std::ptrdiff_t(begin), finishing_.begin() + std::ptrdiff_t(mid),
                 finishing_.begin() + std::ptrdiff_t(mid), finishing_.begin() + std::ptrdiff_t(end),
                 std::back_inserter(merged_), before);
      run_ends_[kept++] = end;
      begin = end;
    }
    run_ends_.resize(kept);
    finishing_.swap(merged_);
  }
}

// While CTAs remain, dispatch keeps every slot busy, so the slot just freed is the only free one
// (of its partition, on a partitioned chip): the next CTA goes there.
void TileMachine::refill(KernelRun& run, int sm) {
  std::size_t n = run.packed->ctas.size();
  if (chip_.layout.partitions > 1) {
    std::size_t& next = run.next_in_partition[std::size_t(chip_.partition_of_sm(sm))];
    if (next >= n) return;
    --run.free_slots[std::size_t(sm)];
    ++run.next_cta;
    start_cta(run, next, sm);
    next += std::size_t(chip_.layout.partitions);
    return;
  }
  if (run.next_cta >= n) return;
  --run.free_slots[std::size_t(sm)];
  start_cta(run, run.next_cta++, sm);
}

}  // namespace hwsim
