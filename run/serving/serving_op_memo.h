#pragma once
// reuse=ops (docs/serving.md, "Speed"): an APPROXIMATION, off by default. A pass's time is
// composed from the times of its ops' shapes, each shape simulated once: the ops whose shape was
// never seen run on the device as one probe (each new shape once, in execution order), and the
// pass takes the sum of its ops' recorded times (kernels run back to back on a stream). What it
// leaves out: how an op's time depends on what ran before it (an input still in L2, a cold
// cache) — the probe's neighbours stand in for the pass's — and, on a system, how a collective's
// time depends on other traffic then. Layers of one shape share their ops' times, so a new step
// costs about one layer's new ops instead of every layer's.
#include <string>
#include <unordered_map>
#include <vector>

#include "ops/op_graph.h"
#include "sim/result.h"
#include "sim/run_totals.h"

namespace hwsim {

// The op's shape, dtypes, parts and fused work as text; ops of equal signature are the same
// kernel(s) on the same data sizes (their names and tensors aside).
std::string op_signature(const Op& op);

class OpMemo {
 public:
  // Ops of `order` (in `g`) whose signature has no time yet, each new signature once.
  std::vector<OpVertex> unknown(const OpGraph& g, const std::vector<OpVertex>& order) const;
  // Learns the times of `probed` from the records of running them: each op's records (its name,
  // or kernels after it not named after another op), end − start.
  // `fastest_level`: the device's, for the records' floors (finalize_record).
  void learn(const OpGraph& g, const std::vector<OpVertex>& probed, const std::vector<WorkRecord>& records,
             double fastest_level);
  // The sum of the ops' times (every signature known), and of what their records added (their
  // FLOPs, bytes, energy: the pass's summary).
  double seconds(const OpGraph& g, const std::vector<OpVertex>& order) const;
  RunTotals totals(const OpGraph& g, const std::vector<OpVertex>& order) const;

 private:
  struct Learned {
    double seconds = 0;
    RunTotals totals;
  };
  const Learned& learned(const OpGraph& g, OpVertex v) const;
  std::unordered_map<std::string, Learned> ops_;
};

}  // namespace hwsim
