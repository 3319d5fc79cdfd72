#pragma once
// The serving runner's SystemC process (docs/serving.md): a scheduler loop over engine steps on one
// device. Each step the scheduler picks the batch (decodes of running sequences, prefill chunks of
// new or preempted ones) under max_batch, max_tokens_per_step and the paged KV pool; the step is
// lowered by the LLM step builder for exactly that composition and run on the device
// (Device::run_step), or — when an identical shape ran before, after an identical step, and reuse is
// on — its time taken from that run. Knows no kind of hardware.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "app/serving_pool.h"
#include "sim/device/device.h"
#include "sim/engine/systemc.h"
#include "sim/result.h"
#include "workloads/llm/step_lowering.h"
#include "workloads/serve/serve_spec.h"

namespace hwsim {

// What the loop produced, for app/serving_metrics.
struct ServingLog {
  std::vector<ServingStep> steps;
  std::vector<ServedRequest> requests;            // by request id
  std::vector<std::vector<double>> token_times;   // per request id, when each output token came out
  std::vector<StepResult> distinct;               // each distinct step shape once, as simulated
  std::int64_t simulated = 0, preemptions = 0;
};

class ServingRunner : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ServingRunner);
  ServingRunner(sc_core::sc_module_name name, Device& device, const ServeSpec& spec, const KvPool& pool,
                std::string framework);
  // After sc_start() and rethrow_simulation_failure().
  ServingLog take_log() { return std::move(log_); }

 private:
  struct Seq;         // a request's scheduler state
  struct Scheduled;   // one step's batch
  // One step's composition as the LLM step builder takes it, and its reuse key.
  struct StepShape {
    LlmStepShape shape;
    std::vector<std::int64_t> key;
    std::int64_t decodes = 0, context = 0, prefill_tokens = 0;
  };
  void run();  // SC_THREAD
  void loop();
  std::vector<Seq> start_log();
  Scheduled schedule(std::vector<Seq>& seqs, double now);
  StepShape shape_of(const Scheduled& b, const std::vector<Seq>& seqs) const;
  double run_or_reuse(const StepShape& s, bool& reused);
  std::size_t finish_step(const Scheduled& b, std::vector<Seq>& seqs, double now);

  Device& device_;
  const ServeSpec& spec_;
  KvPool pool_;
  std::string framework_;
  std::int64_t free_blocks_ = 0;
  std::vector<std::size_t> running_;     // admission order
  std::size_t next_arrival_ = 0;         // requests [0, next_arrival_) have arrived
  std::vector<std::size_t> waiting_;     // arrived or preempted, FIFO (preempted go first)
  std::map<std::vector<std::int64_t>, double> seconds_by_shape_;  // (previous shape, shape) → seconds
  std::set<std::vector<std::int64_t>> labels_;                   // shapes whose records are kept
  std::vector<std::int64_t> previous_key_;                       // the last step's shape
  ServingLog log_;
};

}  // namespace hwsim
