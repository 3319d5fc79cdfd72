#include "models/gpu/power/clock_domain.h"

#include <algorithm>

#include "sim/arith.h"

namespace hwsim {

double kernel_sm_work(const PackedKernel& p, double port_rate) {
  if (p.work_memo.rate == port_rate && port_rate > 0) return p.work_memo.work;
  const Kernel& k = p.kernel;
  double work = 0;
  for (const auto& cta : p.ctas) {
    double read = 0, written = cta.scratch_bytes;
    for (std::uint32_t i = 0; i < cta.read_count; ++i) read += p.operands[cta.reads + i].bytes;
    for (std::uint32_t i = 0; i < cta.write_count; ++i) written += p.operands[cta.writes + i].bytes;
    double math = k.sm_flop_rate > 0 ? cta.flops / k.sm_flop_rate : 0;
    work += (read > 0 ? std::max(math, read / port_rate) : math) + written / port_rate;
  }
  p.work_memo = {port_rate, work};
  return work;
}

bool writes_constant_data(const PackedKernel& p) {
  bool writes = false;
  for (const auto& cta : p.ctas) {
    if (cta.read_count > 0) return false;
    writes = writes || cta.write_count > 0;
  }
  return writes;
}

GpuClockDomain::GpuClockDomain(sc_core::sc_module_name name, const GpuChip& chip, FlowHost& flows,
                               ClockDomainResources resources)
    : sc_core::sc_module(name),
      params_(chip.power),
      port_rate_(chip.sm_port_bytes_per_clock * chip.clock_hz),
      flows_(flows),
      resources_(std::move(resources)),
      governor_(chip.power) {
  SC_METHOD(tick);
  sensitive << tick_;
  dont_initialize();
}

GpuClockDomain::Counters GpuClockDomain::read() {
  FlowNetwork& net = flows_.network();
  net.advance_to(flows_.now());
  Counters c;
  c.time = sc_core::sc_time_stamp();
  // The byte counts in one pass over the flows: SMs, L2 partitions, device memory, [MALL].
  const TallyId tallies[] = {resources_.sm_tally, resources_.l2_tally, resources_.hbm_tally, resources_.mall_tally};
  double bytes[4] = {};
  net.tally_bytes(std::span(tallies, resources_.mall_tally >= 0 ? 4 : 3), bytes);
  c.sm_work = bytes[0], c.l2 = bytes[1], c.hbm = bytes[2], c.mall = bytes[3];
  // The governor sees the SM activity the kernel is priced on (kernel_finished's busy SM-seconds).
  if (resources_.resident_sm_seconds) c.sm_busy = resources_.resident_sm_seconds();
  else
    for (ResourceId r : resources_.sms) c.sm_busy += net.busy_seconds(r);
  return c;
}

void GpuClockDomain::apply_clock(double clock) {
  double scale = clock / params_.max_clock;
  std::vector<std::pair<ResourceId, double>> capacities;
  capacities.reserve(resources_.sms.size());
  for (ResourceId r : resources_.sms) capacities.emplace_back(r, scale);
  flows_.set_capacities(capacities);
}

void GpuClockDomain::update() {
  if (sc_core::sc_time_stamp() <= last_.time) return;  // nothing happened since (a kernel starts as the last ended)
  Counters now = read();
  double dt = seconds_of(now.time - last_.time);
  if (dt <= 0) return;
  double clock = governor_.clock();
  const GpuActivity a = activity_since_last(now);
  double work = now.sm_work - last_.sm_work;
  last_ = now;
  if (kernel_) {
    span_.seconds += dt, span_.clock_seconds += clock * dt;
    if (clock < params_.max_clock) span_.throttled += dt;
    span_.static_joules += params_.static_watts(clock) * dt;
    span_.busy += a.busy_sm_seconds, span_.busy_scaled += a.busy_sm_seconds * params_.power_scale(clock);
    span_.work += work, span_.work_scaled += work * params_.energy_scale(clock);
    span_.l2 += a.l2_bytes, span_.l2_scaled += a.l2_bytes * params_.energy_scale(clock);
  }
  GpuEnergy e = gpu_energy(params_, a, clock);
  if (kernel_ && params_.governed())  // a span the governor's clock did not hold within the limit
    span_.over_limit += std::max(0.0, params_.static_watts(clock) * dt + e.core() + e.memory() - params_.limit * dt);
  double next = governor_.observe(dt, e.core(), e.memory());
  for (Recording* r : recording_)
    if (r) r->observed.push_back({dt, e.core(), e.memory(), next});
  if (next != clock) apply_clock(next);
}

void GpuClockDomain::record(Recording* into, Level level) {
  Recording*& slot = recording_[int(level)];
  slot = nullptr;
  if (!into) return;
  update();
  slot = into;
  *into = Recording{governor_.clock(), {}, {}};
}

void GpuClockDomain::stop_recording(Level level) {
  Recording*& slot = recording_[int(level)];
  if (!slot) return;
  slot->tail = read() - last_;
  slot = nullptr;
}

void GpuClockDomain::restart_counters() { last_ = read(); }

void GpuClockDomain::replayed(const Recording& r) { last_ = read() - r.tail; }

GpuActivity GpuClockDomain::activity_since_last(const Counters& now) const {
  GpuActivity a;
  a.seconds = seconds_of(now.time - last_.time);
  a.busy_sm_seconds = now.sm_busy - last_.sm_busy;
  if (kernel_) a.flops[std::size_t(dtype_)] = (now.sm_work - last_.sm_work) * flops_per_work_, a.constant_data = constant_data_;
  a.l2_bytes = now.l2 - last_.l2;
  a.mall_bytes = now.mall - last_.mall;
  a.hbm_bytes = now.hbm - last_.hbm;
  return a;
}

GpuClockDomain::Observation GpuClockDomain::pending() {
  const Counters now = read();
  if (now.time <= last_.time) return {0, 0, 0, governor_.clock()};
  GpuEnergy e = gpu_energy(params_, activity_since_last(now), governor_.clock());
  return {seconds_of(now.time - last_.time), e.core(), e.memory(), governor_.clock()};
}

bool GpuClockDomain::replay(const Recording& r) {
  if (kernel_) return false;
  const Observation gap = pending();
  DvfsGovernor g = governor_;
  if (gap.seconds > 0) g.observe(gap.seconds, gap.core_joules, gap.memory_joules);
  if (g.clock() != r.start_clock) return false;
  for (const Observation& o : r.observed)
    if (g.observe(o.seconds, o.core_joules, o.memory_joules) != o.clock) return false;
  const double before = governor_.clock();
  if (gap.seconds > 0) update();  // the gap, observed for real (a step recording in progress takes it)
  governor_ = g;  // the counters restart when the step's time has passed (replayed)
  for (Recording* into : recording_)
    if (into) into->observed.insert(into->observed.end(), r.observed.begin(), r.observed.end());
  if (governor_.clock() != before) apply_clock(governor_.clock());
  return true;
}

void GpuClockDomain::tick() {
  update();
  if (kernel_) tick_.notify(to_sc_time(params_.control_period));
}

void GpuClockDomain::kernel_started(const PackedKernel& packed) {
  update();  // the span since the last kernel (idle, if any)
  const Kernel& kernel = packed.kernel;
  kernel_ = &kernel;
  dtype_ = kernel.dtype;
  constant_data_ = writes_constant_data(packed);
  double work = kernel_sm_work(packed, port_rate_);
  flops_per_work_ = ratio(kernel.flops, work);
  span_ = KernelSpan{};
  if (params_.governed() && params_.control_period > 0) tick_.notify(to_sc_time(params_.control_period));
}

KernelPower GpuClockDomain::kernel_finished(const Kernel& kernel, double busy_sm_seconds, double l2_bytes,
                                            double mall_bytes, double hbm_bytes) {
  update();
  tick_.cancel();
  kernel_ = nullptr;
  // Each component priced at the reference clock, then scaled by the clocks its own activity ran at.
  GpuActivity a;
  a.busy_sm_seconds = busy_sm_seconds;
  a.flops[std::size_t(kernel.dtype)] = kernel.flops;
  a.l2_bytes = l2_bytes, a.mall_bytes = mall_bytes, a.hbm_bytes = hbm_bytes;
  a.constant_data = constant_data_;
  KernelPower out;
  out.energy = gpu_energy(params_, a, params_.reference_clock);
  double last = governor_.clock();
  auto mean = [&](double scaled, double weight, double fallback) { return weight > 0 ? scaled / weight : fallback; };
  out.energy[GpuEnergyPart::idle] = span_.static_joules;
  out.energy[GpuEnergyPart::sm_active] *= mean(span_.busy_scaled, span_.busy, params_.power_scale(last));
  double per_op = mean(span_.work_scaled, span_.work, params_.energy_scale(last));
  out.energy[GpuEnergyPart::tensor_flops] *= per_op;
  out.energy[GpuEnergyPart::simt_flops] *= per_op;
  out.energy[GpuEnergyPart::l2] *= mean(span_.l2_scaled, span_.l2, params_.energy_scale(last));
  out.clock = mean(span_.clock_seconds, span_.seconds, last);
  out.throttled = span_.throttled;
  out.over_limit = span_.over_limit;
  return out;
}

}  // namespace hwsim
