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
  for (ResourceId r : resources_.sms) flows_.network().watch(r);  // their capacity follows the clock
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
  const Counters now = read();
  const Counters d = now - last_;
  if (seconds_of(d.time) <= 0) return;
  const double clock = governor_.clock();
  last_ = now;
  const Observation o = price_span(governor_, d, kernel_ ? &inflight_ : nullptr, kernel_ ? &span_ : nullptr);
  for (Recording* r : recording_)
    if (r) r->observed.push_back(o);
  if (Recording* r = recording_[int(Level::kernel)]) {
    r->spans.push_back(d);
    r->repriceable = r->repriceable && kernel_;
  }
  if (o.clock != clock) apply_clock(o.clock);
}

GpuClockDomain::Observation GpuClockDomain::price_span(DvfsGovernor& g, const Counters& d, const KernelInputs* k,
                                                       KernelSpan* span) const {
  const double dt = seconds_of(d.time), clock = g.clock();
  const GpuActivity a = activity_of(d, k);
  if (span) {
    span->seconds += dt, span->clock_seconds += clock * dt;
    if (clock < params_.max_clock) span->throttled += dt;
    span->static_joules += params_.static_watts(clock) * dt;
    span->busy += a.busy_sm_seconds, span->busy_scaled += a.busy_sm_seconds * params_.power_scale(clock);
    span->work += d.sm_work, span->work_scaled += d.sm_work * params_.energy_scale(clock);
    span->l2 += a.l2_bytes, span->l2_scaled += a.l2_bytes * params_.energy_scale(clock);
  }
  const GpuEnergy e = gpu_energy(params_, a, clock);
  if (span && params_.governed())  // a span the governor's clock did not hold within the limit
    span->over_limit += std::max(0.0, params_.static_watts(clock) * dt + e.core() + e.memory() - params_.limit * dt);
  const double next = g.observe(dt, e.core(), e.memory());
  return {dt, e.core(), e.memory(), next};
}

void GpuClockDomain::record(Recording* into, Level level) {
  Recording*& slot = recording_[int(level)];
  slot = nullptr;
  if (!into) return;
  update();
  slot = into;
  *into = Recording{};
  into->start_clock = governor_.clock();
}

void GpuClockDomain::stop_recording(Level level) {
  Recording*& slot = recording_[int(level)];
  if (!slot) return;
  slot->tail = read() - last_;
  slot = nullptr;
}

void GpuClockDomain::restart_counters() { last_ = read(); }

void GpuClockDomain::replayed(const Recording& r) { last_ = read() - r.tail; }

GpuActivity GpuClockDomain::activity_of(const Counters& d, const KernelInputs* k) {
  GpuActivity a;
  a.seconds = seconds_of(d.time);
  a.busy_sm_seconds = d.sm_busy;
  if (k) a.flops[std::size_t(k->dtype)] = d.sm_work * k->flops_per_work, a.constant_data = k->constant_data;
  a.l2_bytes = d.l2;
  a.mall_bytes = d.mall;
  a.hbm_bytes = d.hbm;
  return a;
}

GpuClockDomain::Observation GpuClockDomain::pending() {
  const Counters now = read();
  if (now.time <= last_.time) return {0, 0, 0, governor_.clock()};
  GpuEnergy e = gpu_energy(params_, activity_of(now - last_, kernel_ ? &inflight_ : nullptr), governor_.clock());
  return {seconds_of(now.time - last_.time), e.core(), e.memory(), governor_.clock()};
}

void GpuClockDomain::tick() {
  update();
  if (kernel_) tick_.notify(to_sc_time(params_.control_period));
}

void GpuClockDomain::kernel_started(const PackedKernel& packed) {
  update();  // the span since the last kernel (idle, if any)
  const Kernel& kernel = packed.kernel;
  kernel_ = &kernel;
  inflight_ = KernelInputs{};
  inflight_.dtype = kernel.dtype;
  inflight_.constant_data = writes_constant_data(packed);
  inflight_.flops_per_work = ratio(kernel.flops, kernel_sm_work(packed, port_rate_));
  span_ = KernelSpan{};
  if (params_.governed() && params_.control_period > 0) tick_.notify(to_sc_time(params_.control_period));
}

KernelPower GpuClockDomain::kernel_finished(const Kernel& kernel, double busy_sm_seconds, double l2_bytes,
                                            double mall_bytes, double hbm_bytes) {
  update();
  tick_.cancel();
  kernel_ = nullptr;
  inflight_.dtype = kernel.dtype, inflight_.flops = kernel.flops, inflight_.busy_sm_seconds = busy_sm_seconds;
  inflight_.l2_bytes = l2_bytes, inflight_.mall_bytes = mall_bytes, inflight_.hbm_bytes = hbm_bytes;
  if (Recording* r = recording_[int(Level::kernel)]) r->kernel = inflight_;
  return price_kernel(inflight_, span_, governor_.clock());
}

// Each component priced at the reference clock, then scaled by the clocks its own activity ran at.
KernelPower GpuClockDomain::price_kernel(const KernelInputs& k, const KernelSpan& span, double last) const {
  GpuActivity a;
  a.busy_sm_seconds = k.busy_sm_seconds;
  a.flops[std::size_t(k.dtype)] = k.flops;
  a.l2_bytes = k.l2_bytes, a.mall_bytes = k.mall_bytes, a.hbm_bytes = k.hbm_bytes;
  a.constant_data = k.constant_data;
  KernelPower out;
  out.energy = gpu_energy(params_, a, params_.reference_clock);
  auto mean = [&](double scaled, double weight, double fallback) { return weight > 0 ? scaled / weight : fallback; };
  out.energy[GpuEnergyPart::idle] = span.static_joules;
  out.energy[GpuEnergyPart::sm_active] *= mean(span.busy_scaled, span.busy, params_.power_scale(last));
  double per_op = mean(span.work_scaled, span.work, params_.energy_scale(last));
  out.energy[GpuEnergyPart::tensor_flops] *= per_op;
  out.energy[GpuEnergyPart::simt_flops] *= per_op;
  out.energy[GpuEnergyPart::l2] *= mean(span.l2_scaled, span.l2, params_.energy_scale(last));
  out.clock = mean(span.clock_seconds, span.seconds, last);
  out.throttled = span.throttled;
  out.over_limit = span.over_limit;
  return out;
}

}  // namespace hwsim
