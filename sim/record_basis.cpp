#include "sim/record_basis.h"

#include <algorithm>

namespace hwsim {

WorkRecord basic_record(const RecordBasis& basis, double start, double end,
                        std::shared_ptr<const RecordSchema> schema, const std::vector<double>& traffic) {
  WorkRecord r;
  r.name = basis.name;
  r.op_class = basis.op_class;
  r.config = basis.config;
  r.dtype = basis.dtype;
  r.start = start;
  r.end = end;
  r.launch = basis.overhead;
  r.flops = basis.flops;
  r.min_bytes = basis.min_bytes;
  r.schema = std::move(schema);
  for (double t : traffic) r.traffic.push_back(t);
  r.peak_flop_rate = basis.peak_flop_rate;
  r.peak_memory_bandwidth = basis.peak_memory_bandwidth;
  double duration = end - start;
  r.breakdown.overhead = std::min(basis.overhead, duration);
  r.breakdown.compute = std::min(basis.compute_seconds, duration - r.breakdown.overhead);
  r.breakdown.memory = std::max(0.0, duration - r.breakdown.overhead - r.breakdown.compute);
  return r;
}

}  // namespace hwsim
