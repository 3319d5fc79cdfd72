#pragma once
// Derives the language-model metrics of a finished run (RunResult::llm) from the Workload (tokens
// per step, phases) and the finalized records (times, bytes, floors). Called once by the runner.
#include <map>
#include <string>
#include <vector>

#include "sim/result.h"
#include "workloads/llm/op_names.h"
#include "workloads/workload.h"

namespace hwsim {

// Derives the metrics step by step, as the steps run, so a long run's records may be dropped once
// added; the arithmetic and its order are compute_llm_metrics()'s (which uses it).
class LlmMetricsBuilder {
 public:
  // `devices`: the simulated devices whose records a step holds (a system's stages; 1 otherwise):
  // a step's MBU and MFU are one device's, averaged over them.
  explicit LlmMetricsBuilder(const Workload& workload, double devices = 1) : workload_(workload), devices_(devices) {}
  // The next step of the run, its records finalized (ResultBuilder::add_step).
  void add_step(const StepResult& step);
  // The metrics, once every step was added and `result` finalized (ResultBuilder::finish).
  LlmMetrics finish(const RunResult& result) const;

 private:
  struct StepFigures {  // what a step's MBU and MFU need once the run's peaks are known
    LlmStepMetrics metrics;
    double bytes = 0, flops = 0;
  };
  struct Candidate {  // an operation's record farthest from its floor so far, and its records
    double excess = 0;
    std::size_t step = 0, index = 0;
    std::int64_t records = 0;
    LlmRecordDistance distance;
  };
  const Workload& workload_;
  double devices_;
  LlmMetrics partial_;  // by_class, ttft
  std::map<std::string, LlmOperationTime> operations_;
  std::vector<StepFigures> steps_;
  std::map<std::string, Candidate> farthest_;  // per operation (operation_of)
  double decode_seconds_ = 0;
  std::int64_t decode_steps_ = 0, decode_tokens_ = 0;
};

// The whole run's metrics from its kept records (a LlmMetricsBuilder over r.steps).
LlmMetrics compute_llm_metrics(const Workload& workload, const RunResult& result);

}  // namespace hwsim
