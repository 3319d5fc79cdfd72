#include "models/gpu/tile/tile_machine.h"

#include <algorithm>
#include <limits>

namespace hwsim {

// One CTA's flows, kept in place while it runs so completion callbacks capture two pointers
// (std::function's inline storage) instead of copies.
struct TileMachine::CtaFlight {
  KernelRun* run;
  int sm;
  FlowSpec main, epilogue;
};

// Book-keeping of the kernel in flight.
struct TileMachine::KernelRun {
  const Kernel* kernel;
  WorkRecord record;
  std::size_t next_cta = 0;
  std::size_t finished = 0;
  double start = 0;
  double overhead_sm_seconds = 0;  // prologue + epilogue + per-CTA cost, summed over CTAs
  std::vector<int> free_slots;     // per SM
  std::vector<CtaFlight> flights;  // one per CTA, indexed like kernel->ctas
  std::vector<std::size_t> next_in_partition;  // partitioned chips: next CTA of each partition
};

TileMachine::TileMachine(sc_core::sc_module_name name, const GpuChip& chip)
    : sc_core::sc_module(name), chip_(chip), timers_("timers"), flows_("flows"),
      caches_(chip.layout.partitions, chip.l2_bytes, chip.layout.mall_bytes), schema_(schema(chip)) {
  auto& net = flows_.network();
  for (int p = 0; p < chip.layout.partitions; ++p)
    l2_resources_.push_back(net.add_resource("l2", chip.l2_bandwidth / chip.layout.partitions));
  hbm_resource_ = net.add_resource("hbm", chip.usable_hbm_bandwidth());
  if (chip.layout.has_mall()) mall_resource_ = net.add_resource("mall", chip.layout.mall_bandwidth);
  sms_.resize(std::size_t(chip.sm_count));
  for (int i = 0; i < chip.sm_count; ++i) sms_[std::size_t(i)].resource = net.add_resource("sm", 1.0);
}

void TileMachine::sm_enter(int sm) {
  auto& s = sms_[std::size_t(sm)];
  if (s.active++ == 0) s.busy_since = sim_now();
}

void TileMachine::sm_leave(int sm) {
  auto& s = sms_[std::size_t(sm)];
  if (--s.active == 0) s.busy_total += sim_now() - s.busy_since;
}

std::shared_ptr<const RecordSchema> TileMachine::schema() {
  static const auto schema = std::make_shared<const RecordSchema>(RecordSchema{
      {"l2", "hbm"},
      {{"ctas", Rollup::sum}, {"ctas_per_sm", Rollup::none}, {"sms_used", Rollup::none}, {"waves", Rollup::none}}});
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
       {v.detail_waves, Rollup::none}}});
}

std::vector<WorkRecord> TileMachine::run_kernels(const std::vector<Kernel>& kernels) {
  std::vector<WorkRecord> records;
  records.reserve(kernels.size());
  double step_start = sim_now();
  for (const Kernel& kernel : kernels) records.push_back(run_kernel(kernel, step_start, &kernel == &kernels.back()));
  return records;
}

WorkRecord TileMachine::run_kernel(const Kernel& kernel, double step_start, bool last_of_step) {
  auto& net = flows_.network();
  KernelRun run{&kernel, {}, 0, 0, sim_now(), 0, {}, {}};
  run.record.name = kernel.name;
  run.record.op_class = kernel.op_class;
  run.record.config = kernel.config;
  run.record.dtype = std::string(dtype_name(kernel.dtype));
  run.record.start = sim_now() - step_start;
  run.record.flops = kernel.flops;
  run.record.min_bytes = kernel.min_bytes;
  run.record.peak_flop_rate = kernel.peak_flop_rate;
  run.record.peak_memory_bandwidth = chip_.hbm_bandwidth;
  run.record.launch = chip_.launch_overhead;
  // Kind-specific details: the grid and how it fills the chip.
  int sms_used = int(std::min<std::size_t>(kernel.ctas.size(), std::size_t(chip_.sm_count)));
  double waves = double(kernel.ctas.size()) / (double(chip_.sm_count) * kernel.ctas_per_sm);
  run.record.schema = schema_;
  run.record.details = {double(kernel.ctas.size()), double(kernel.ctas_per_sm), double(sms_used), waves};
  for (auto& s : sms_) s.busy_total = 0;
  auto l2_bytes = [&] {
    double b = 0;
    for (ResourceId r : l2_resources_) b += net.bytes_through(r);
    return b;
  };
  double l2_before = l2_bytes(), hbm_before = net.bytes_through(hbm_resource_);
  double mall_before = chip_.layout.has_mall() ? net.bytes_through(mall_resource_) : 0;

  wait(to_sc_time(chip_.launch_overhead));
  run.free_slots.assign(std::size_t(chip_.sm_count), kernel.ctas_per_sm);
  run.flights.resize(kernel.ctas.size());
  if (kernel.ctas.empty()) {
    kernel_done_.notify(sc_core::SC_ZERO_TIME);
  } else {
    dispatch(run);
  }
  wait(kernel_done_);
  // A step ends with its dirty L2 data written back (the last kernel waits for it): what a
  // repeated step pays anyway, as the next one evicts it, and what keeps a kernel that streams out
  // more than L2 holds (a fill) from finishing before its bytes reach memory.
  if (chip_.layout.partitions > 1 || last_of_step) release_partitions();

  double end = sim_now();
  net.advance_to(end);
  run.record.end = end - step_start;
  if (chip_.layout.has_mall())
    run.record.traffic = {l2_bytes() - l2_before, net.bytes_through(mall_resource_) - mall_before,
                          net.bytes_through(hbm_resource_) - hbm_before};
  else
    run.record.traffic = {l2_bytes() - l2_before, net.bytes_through(hbm_resource_) - hbm_before};
  double busy = 0;
  for (const auto& s : sms_) busy += s.busy_total;
  account(kernel, run, end - run.start, busy);
  return std::move(run.record);
}

// Time accounting in SM-seconds, then averaged over the SMs; energy from the chip's power model.
void TileMachine::account(const Kernel& kernel, KernelRun& run, double duration, double busy) {
  double sm_seconds = duration * chip_.sm_count;
  double math = kernel.sm_flop_rate > 0 ? kernel.flops / kernel.sm_flop_rate : 0;
  double overhead = chip_.launch_overhead * chip_.sm_count + run.overhead_sm_seconds / kernel.ctas_per_sm;
  double idle = std::max(0.0, sm_seconds - busy - chip_.launch_overhead * chip_.sm_count);
  math = std::min(math, std::max(0.0, sm_seconds - overhead - idle));
  double memory_wait = std::max(0.0, sm_seconds - math - overhead - idle);
  double n = chip_.sm_count;
  run.record.breakdown = TimeBreakdown{math / n, memory_wait / n, 0, overhead / n, idle / n};
  double joules_per_flop = kernel.dtype == DType::fp32 ? chip_.simt_joules_per_flop : chip_.tensor_joules_per_flop;
  std::size_t hbm_level = chip_.layout.has_mall() ? 2 : 1;
  run.record.energy = chip_.idle_watts * duration + chip_.sm_active_watts * busy + kernel.flops * joules_per_flop +
                      run.record.traffic[hbm_level] * chip_.hbm_joules_per_byte +
                      run.record.traffic[0] * chip_.l2_joules_per_byte;
  if (chip_.layout.has_mall()) run.record.energy += run.record.traffic[1] * chip_.layout.mall_joules_per_byte;
}

void TileMachine::dispatch(KernelRun& run) {
  if (chip_.layout.partitions > 1) return dispatch_partitioned(run);
  // Breadth-first over SMs, as the hardware's block scheduler spreads a grid.
  const Kernel& k = *run.kernel;
  bool placed = true;
  while (placed && run.next_cta < k.ctas.size()) {
    placed = false;
    for (int sm = 0; sm < chip_.sm_count && run.next_cta < k.ctas.size(); ++sm) {
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
  const Kernel& k = *run.kernel;
  std::size_t n = k.ctas.size(), parts = std::size_t(chip_.layout.partitions);
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

// What one CTA's operands cost beyond its SM: bytes per level from the caches of its partition,
// as flow demands per byte read (main) and per byte written (epilogue), and the latency of its
// first data. Without a memory-side cache: l2, hbm (the arithmetic NVIDIA chips always had).
TileMachine::CtaRoute TileMachine::route_cta(const Kernel& k, const CtaWork& cta, int sm) {
  int partition = chip_.partition_of_sm(sm);
  ResourceId l2 = l2_resources_[std::size_t(partition)];
  CtaRoute out;
  LevelBytes reads, writes;
  for (const auto& r : cta.reads) {
    out.read_bytes += r.bytes;
    reads += caches_.read(partition, r.object, r.bytes, r.offset);
  }
  for (const auto& w : cta.writes) {
    out.write_bytes += w.bytes;
    writes += caches_.write(partition, w.object, w.bytes, w.offset);
  }
  double read_bytes = out.read_bytes, total_out = out.write_bytes + cta.scratch_bytes;
  double miss_fraction = read_bytes > 0 ? reads.l2_miss / read_bytes : 0;
  auto per_read = [&](double bytes) { return read_bytes > 0 ? bytes / read_bytes : 0; };
  auto per_write = [&](double bytes) { return total_out > 0 ? bytes / total_out : 0; };
  if (!caches_.has_mall()) {
    double hbm_per_byte = per_read(reads.l2_miss + reads.l2_writeback);
    out.main = {{l2, k.l2_read_factor}, {hbm_resource_, hbm_per_byte * k.hbm_access_cost}};
    out.epilogue = {{l2, 1.0}, {hbm_resource_, per_write(writes.l2_writeback)}};
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

void TileMachine::start_cta(KernelRun& run, std::size_t index, int sm) {
  const Kernel& k = *run.kernel;
  const CtaWork& cta = k.ctas[index];
  sm_enter(sm);
  CtaRoute route = route_cta(k, cta, sm);
  double read_bytes = route.read_bytes, write_bytes = route.write_bytes;
  double port = chip_.sm_port_bytes_per_clock * chip_.clock_hz;

  FlowSpec main;
  main.bytes = read_bytes;
  // SM time per operand byte: math or the SM's L2 port, whichever is slower (they overlap).
  double sm_per_byte = read_bytes > 0 ? std::max(cta.flops / read_bytes / k.sm_flop_rate, 1.0 / port) : 0;
  main.demands = route.main;
  main.demands.push_back({sms_[std::size_t(sm)].resource, sm_per_byte});
  double latency = route.latency;
  if (k.bytes_in_flight > 0) main.max_rate = k.bytes_in_flight / latency;
  double math_alone = k.sm_flop_rate > 0 ? cta.flops / k.sm_flop_rate : 0;
  if (read_bytes == 0) {
    // Pure math: an SM-time flow with no memory traffic.
    main.bytes = math_alone;
    main.max_rate = std::numeric_limits<double>::infinity();
    main.demands = {{sms_[std::size_t(sm)].resource, 1.0}};
  }

  FlowSpec epilogue;
  epilogue.bytes = write_bytes + cta.scratch_bytes;
  double total_out = epilogue.bytes;
  epilogue.demands = route.epilogue;
  epilogue.demands.push_back({sms_[std::size_t(sm)].resource, 1.0 / port});
  double epilogue_alone = total_out / port;
  // Pipeline fill: set-up, then the latency of the first data from wherever it is.
  double fill = k.prologue + latency;
  double overhead = fill + epilogue_alone + chip_.cta_overhead;
  run.overhead_sm_seconds += overhead;

  CtaFlight* flight = &run.flights[index];
  *flight = CtaFlight{&run, sm, main, epilogue};
  timers_.after(fill, [this, flight]() {
    flows_.start(std::move(flight->main), [this, flight]() {
      flows_.start(std::move(flight->epilogue), [this, flight]() {
        timers_.after(chip_.cta_overhead, [this, flight]() { finish_cta(*flight); });
      });
    });
  });
}

void TileMachine::finish_cta(CtaFlight& flight) {
  KernelRun& run = *flight.run;
  int sm = flight.sm;
  sm_leave(sm);
  ++run.free_slots[std::size_t(sm)];
  ++run.finished;
  if (run.finished == run.kernel->ctas.size()) {
    kernel_done_.notify(sc_core::SC_ZERO_TIME);
    return;
  }
  dispatch(run);
}

}  // namespace hwsim
