#pragma once
// The fields of a WorkRecord a machine that runs one op at a time fills the same way from the op's
// lowered work `w` (any struct with name, op_class, config, dtype, overhead, flops and peak_flop_rate):
// its names, its span [start, end) in the step, its launch (the work's fixed overhead), its FLOPs and
// roof, its schema and its traffic per level. The machine adds what is its own (min_bytes, the
// memory roof, the breakdown, details, energy).
#include <memory>
#include <vector>

#include "sim/result.h"

namespace hwsim {

template <class Work>
WorkRecord record_head(const Work& w, double start, double end, std::shared_ptr<const RecordSchema> schema,
                       const std::vector<double>& traffic) {
  WorkRecord r;
  r.name = w.name;
  r.op_class = w.op_class;
  r.config = w.config;
  r.dtype = w.dtype;
  r.start = start;
  r.end = end;
  r.launch = w.overhead;
  r.flops = w.flops;
  r.peak_flop_rate = w.peak_flop_rate;
  r.schema = std::move(schema);
  for (double t : traffic) r.traffic.push_back(t);
  return r;
}

}  // namespace hwsim
