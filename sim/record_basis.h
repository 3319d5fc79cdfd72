// The part of a WorkRecord every device model fills alike: what ran and how it was lowered, when,
// its work, the peaks its roofline is judged against, and a breakdown that puts the fixed overhead
// first, then the arithmetic, and leaves to memory the time the transfers outlasted both.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/result.h"

namespace hwsim {

struct RecordBasis {
  std::string name, op_class, config, dtype;
  double flops = 0;
  double min_bytes = 0;              // at the roofline's memory (WorkRecord::min_bytes)
  double overhead = 0;               // seconds of fixed cost before any work (dispatch, invoke)
  double compute_seconds = 0;        // the arithmetic alone
  double peak_flop_rate = 0;         // of the engine that ran it, for its math dtype
  double peak_memory_bandwidth = 0;  // of the roofline's memory
};

// A record of `basis` over [start, end] (seconds from the step's start), with `traffic` bytes per
// level of `schema`. Its breakdown sums to end − start; details and energy are left to the caller.
WorkRecord basic_record(const RecordBasis& basis, double start, double end,
                        std::shared_ptr<const RecordSchema> schema, const std::vector<double>& traffic);

}  // namespace hwsim
