#pragma once
// The WorkRecord of one fused op on the systolic chip, from its plan and what each TensorCore's
// phases cost (pure). Details (documented in docs/systolic.md):
//   mxu_utilisation  (time_mean) useful MXU FLOPs ÷ (MXU peak × the op's time)
//   fold_efficiency  (time_mean) fraction of the array cells the op's folds occupy
//   folds            (sum)       folds (stationary-operand loads) run, all MXUs
//   vector_share     (time_mean) fraction of the op's time the vector unit set the pace
//   vmem_stall       (sum)       seconds a TensorCore (mean over them) waited on HBM beyond the
//                                loads and stores double buffering hid
//   tiles            (sum)       pipeline steps (VMEM blocks or chunks), all TensorCores
// The breakdown is averaged over the TensorCores (SystolicMachine::core_time says how each core's
// time is split by whichever of HBM or its steps set the pace): compute (MXU / vector / VMEM busy
// on useful work), memory (waiting on HBM), overhead (dispatch, per-step cost, MXU fill and drain
// not hidden under loads), idle.
#include <memory>
#include <vector>

#include "models/systolic/op_plan.h"
#include "models/systolic/systolic_chip.h"
#include "models/systolic/systolic_machine.h"
#include "sim/result.h"

namespace hwsim {

struct OpTiming {
  double start = 0, end = 0;   // seconds from the step's start (start: dispatch begins)
  double hbm_bytes = 0;        // moved during the op
};

// What a systolic record holds: traffic at vmem and hbm; details mxu_utilisation, fold_efficiency,
// vector_share (time-weighted means over a run), folds, vmem_stall (seconds), tiles (sums).
std::shared_ptr<const RecordSchema> systolic_schema();

// The host's dispatch of a step (systolic.host_dispatch): the device idles; no work, no traffic.
WorkRecord dispatch_record(double start, double end, const SystolicChip& chip);

WorkRecord op_record(const OpPlan& plan, const OpTiming& timing, const std::vector<std::vector<CoreTime>>& phases,
                     const SystolicChip& chip);

}  // namespace hwsim
