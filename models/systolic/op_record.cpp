#include "models/systolic/op_record.h"

namespace hwsim {
namespace {

struct PlanTotals {
  double mxu_macs = 0, vector_ops = 0, vmem_bytes = 0, folds = 0, cells = 0, steps = 0;
};

PlanTotals totals(const OpPlan& plan) {
  PlanTotals t;
  for (const Phase& ph : plan.phases) {
    double steps = double(ph.total_steps());
    t.mxu_macs += ph.mxu_macs;
    t.vector_ops += ph.vector_ops;
    t.vmem_bytes += steps * ph.step.vmem_bytes;
    t.folds += double(ph.folds);
    t.cells += double(ph.folds) * ph.fold_efficiency;
    t.steps += steps;
  }
  return t;
}

}  // namespace

std::shared_ptr<const RecordSchema> systolic_schema() {
  static const auto schema = std::make_shared<const RecordSchema>(RecordSchema{
      {"vmem", "hbm"},
      {{"mxu_utilisation", Rollup::time_mean}, {"fold_efficiency", Rollup::time_mean}, {"folds", Rollup::sum},
       {"vector_share", Rollup::time_mean}, {"vmem_stall", Rollup::sum}, {"tiles", Rollup::sum}},
      {"static", "mxu_flops", "vpu_ops", "vmem", "hbm"}});
  return schema;
}

WorkRecord dispatch_record(double start, double end, const SystolicChip& chip) {
  WorkRecord r;
  r.name = "host dispatch";
  r.op_class = "dispatch";
  r.config = "host: jitted call to result, not device time";
  r.start = start;
  r.end = end;
  r.launch = end - start;
  r.peak_memory_bandwidth = chip.hbm_bandwidth;
  r.schema = systolic_schema();
  r.traffic = {0, 0};
  TimeBreakdown b;
  b.overhead = end - start;
  r.breakdown = b;
  r.details = {0, 0, 0, 0, 0, 0};
  r.energy_parts = {chip.idle_watts * (end - start), 0, 0, 0, 0};
  r.energy = r.energy_parts[0];
  return r;
}

WorkRecord op_record(const OpPlan& plan, const OpTiming& timing, const std::vector<std::vector<CoreTime>>& phases,
                     const SystolicChip& chip) {
  WorkRecord r;
  r.name = plan.name;
  r.op_class = plan.op_class;
  r.config = plan.config();
  r.dtype = plan.dtype;
  r.start = timing.start;
  r.end = timing.end;
  r.launch = chip.op_overhead;
  r.flops = plan.flops;
  r.min_bytes = plan.min_bytes;
  r.peak_flop_rate = plan.peak_flop_rate;
  r.peak_memory_bandwidth = chip.hbm_bandwidth;
  PlanTotals t = totals(plan);
  r.schema = systolic_schema();
  r.traffic = {t.vmem_bytes, timing.hbm_bytes};

  double cores = chip.tensorcores, duration = timing.end - timing.start;
  TimeBreakdown b;
  b.overhead = chip.op_overhead;
  double vector_bound = 0;
  for (const auto& phase : phases)
    for (const CoreTime& c : phase) {
      b.compute += c.compute / cores;
      b.overhead += c.overhead / cores;
      b.memory += c.memory / cores;
      b.idle += c.idle / cores;
      vector_bound += c.vector_bound / cores;
    }
  r.breakdown = b;

  double seconds = duration > 0 ? duration : 1;
  double mxu_util = plan.mxu_peak_flop_rate > 0 ? 2 * t.mxu_macs / (plan.mxu_peak_flop_rate * seconds) : 0;
  r.details = {mxu_util, t.folds > 0 ? t.cells / t.folds : 0, t.folds, vector_bound / seconds, b.memory, t.steps};
  // Energy by component, in systolic_schema()'s order; they sum to the record's energy.
  r.energy_parts = {chip.idle_watts * duration, chip.mxu_joules_per_flop * 2 * t.mxu_macs,
                    chip.vpu_joules_per_flop * t.vector_ops, chip.vmem_joules_per_byte * t.vmem_bytes,
                    chip.hbm_joules_per_byte * timing.hbm_bytes};
  r.energy = 0;
  for (double part : r.energy_parts) r.energy += part;
  return r;
}

}  // namespace hwsim
