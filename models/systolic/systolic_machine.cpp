#include "models/systolic/systolic_machine.h"

#include <algorithm>
#include <limits>

#include "models/systolic/op_record.h"

namespace hwsim {

// One TensorCore's pipeline in the current phase, kept in place while its callbacks are pending.
struct SystolicMachine::CoreFlight {
  const PipelineStep* step = nullptr;
  std::int64_t steps = 0;
  double busy = 0;        // seconds per step
  double once = 0;        // the phase's one-time MXU fill and drain, after the last step
  double start = 0, end = 0;
};

SystolicMachine::SystolicMachine(sc_core::sc_module_name name, const SystolicChip& chip)
    : sc_core::sc_module(name), chip_(chip), timers_("timers"), flows_("flows") {
  hbm_ = flows_.network().add_resource("hbm", chip_.usable_hbm_bandwidth());
  if (chip_.ifmap_bandwidth > 0) ifmap_ = flows_.network().add_resource("hbm.ifmap", chip_.ifmap_bandwidth);
  if (chip_.filter_bandwidth > 0) filter_ = flows_.network().add_resource("hbm.filter", chip_.filter_bandwidth);
  if (chip_.ofmap_bandwidth > 0) ofmap_ = flows_.network().add_resource("hbm.ofmap", chip_.ofmap_bandwidth);
}

FlowDemands SystolicMachine::demands(double ifmap_bytes, double filter_bytes, double ofmap_bytes) const {
  FlowDemands d{{hbm_, 1.0}};
  double total = ifmap_bytes + filter_bytes + ofmap_bytes;
  if (total <= 0) return d;
  auto add = [&](const std::optional<ResourceId>& r, double bytes) {
    if (r && bytes > 0) d.push_back({*r, bytes / total});
  };
  add(ifmap_, ifmap_bytes);
  add(filter_, filter_bytes);
  add(ofmap_, ofmap_bytes);
  return d;
}

void SystolicMachine::start_core(CoreFlight& f) {
  if (f.step->load_bytes <= 0) return after_prologue(f);
  timers_.after(chip_.hbm_latency, [this, &f]() {
    const PipelineStep& s = *f.step;
    FlowSpec load{s.load_bytes, std::numeric_limits<double>::infinity(),
                  demands(s.load_bytes * (1 - s.filter_share), s.load_bytes * s.filter_share, 0)};
    flows_.start(load, [this, &f]() { after_prologue(f); });
  });
}

void SystolicMachine::after_prologue(CoreFlight& f) {
  if (f.steps <= 1) return last_step(f);
  double n = double(f.steps - 1);
  double bytes = n * (f.step->load_bytes + f.step->store_bytes);
  if (bytes <= 0) {
    timers_.after(n * f.busy, [this, &f]() { last_step(f); });
    return;
  }
  const PipelineStep& s = *f.step;
  FlowSpec body{bytes, f.busy > 0 ? bytes / (n * f.busy) : std::numeric_limits<double>::infinity(),
                demands(s.load_bytes * (1 - s.filter_share), s.load_bytes * s.filter_share, s.store_bytes)};
  flows_.start(body, [this, &f]() { last_step(f); });
}

void SystolicMachine::last_step(CoreFlight& f) {
  timers_.after(f.busy + f.once, [this, &f]() { epilogue(f); });
}

void SystolicMachine::epilogue(CoreFlight& f) {
  if (f.step->store_bytes <= 0) return finish(f);
  FlowSpec store{f.step->store_bytes, std::numeric_limits<double>::infinity(), demands(0, 0, f.step->store_bytes)};
  flows_.start(store, [this, &f]() { finish(f); });
}

void SystolicMachine::finish(CoreFlight& f) {
  f.end = sim_now();
  if (--running_ == 0) phase_done_.notify(sc_core::SC_ZERO_TIME);
}

std::vector<CoreTime> SystolicMachine::run_phase(const Phase& phase) {
  const PipelineStep& s = phase.step;
  double start = sim_now();
  std::vector<CoreFlight> flights(phase.steps.size());
  running_ = 0;
  for (std::size_t c = 0; c < flights.size(); ++c) {
    double once = phase.steps[c] > 0 ? phase.once_seconds : 0;  // a core without steps has no chain
    flights[c] = CoreFlight{&s, phase.steps[c], s.busy(chip_.step_overhead), once, start, start};
    if (flights[c].steps > 0) ++running_;
  }
  const int running_cores = running_;
  for (auto& f : flights)
    if (f.steps > 0) start_core(f);
  if (running_ > 0) wait(phase_done_);
  double end = sim_now();
  std::vector<CoreTime> times;
  for (const auto& f : flights) times.push_back(core_time(s, f, end, running_cores));
  return times;
}

// Where one core's time in a phase went. Its steps keep it busy (MXU, vector unit or VMEM, plus
// the per-step cost) for n·busy; HBM alone would need n·(load + store) bytes at its share of the
// usable bandwidth. Whichever is longer set the pace:
//  - compute-paced: compute = the busy time less the MXU fill and drain; overhead = fill, drain
//    and per-step cost; memory = any wait on HBM beyond that (elapsed − busy);
//  - HBM-paced: the fill and drain ran hidden under the loads, so they are not overhead: compute
//    as above, overhead = the per-step cost, memory = the rest of the elapsed time.
// idle: after the core's last store, while another core finishes.
CoreTime SystolicMachine::core_time(const PipelineStep& s, const CoreFlight& f, double phase_end,
                                    int running_cores) const {
  double n = double(f.steps);
  double core_busy = std::max({s.mxu_seconds, s.vpu_seconds, s.vmem_seconds});
  double without_fill = std::max({s.mxu_seconds - s.fill_seconds, s.vpu_seconds, s.vmem_seconds});
  bool vector_bound = s.vpu_seconds > 0 && s.vpu_seconds >= std::max(s.mxu_seconds, s.vmem_seconds);
  // HBM alone: the core's bytes at its share of every channel they cross.
  double hbm_alone = n * std::max(1, running_cores) *
                     chip_.hbm_seconds(s.load_bytes * (1 - s.filter_share), s.load_bytes * s.filter_share, s.store_bytes);
  double elapsed = f.end - f.start;
  CoreTime t;
  t.compute = std::min(elapsed, n * without_fill);
  if (hbm_alone > n * f.busy) {
    t.overhead = std::min(elapsed - t.compute, n * chip_.step_overhead + f.once);
    t.memory = std::max(0.0, elapsed - t.compute - t.overhead);
  } else {
    t.overhead = n * (core_busy - without_fill + chip_.step_overhead) + f.once;
    t.memory = std::max(0.0, elapsed - n * f.busy - f.once);
  }
  t.idle = phase_end - f.end;
  t.vector_bound = vector_bound ? t.compute : 0;
  return t;
}

WorkRecord SystolicMachine::run_op(const OpPlan& plan, double step_start) {
  auto& net = flows_.network();
  double start = sim_now();
  net.advance_to(start);
  double hbm_before = net.bytes_through(hbm_);
  wait(to_sc_time(chip_.op_overhead));
  std::vector<std::vector<CoreTime>> phases;
  for (const Phase& ph : plan.phases) phases.push_back(run_phase(ph));
  double end = sim_now();
  net.advance_to(end);
  OpTiming timing{start - step_start, end - step_start, net.bytes_through(hbm_) - hbm_before};
  return op_record(plan, timing, phases, chip_);
}

}  // namespace hwsim
