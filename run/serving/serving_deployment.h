#pragma once
// The serving run's SystemC modules (docs/serving.md): the serving instances (app/serving_engine)
// placed on devices by the layout — one on a chip; dp replicas of tp devices, or prefill and decode
// instances, on a system — and the process that hands each request to an instance when it arrives
// (router: fewest unfinished requests, or round robin). Disaggregated, a request whose prefill
// produced its first token is routed to a decode instance; once that instance has reserved blocks
// for it, its KV cache moves over the links (one point-to-point transfer per pair of prefill and
// decode ranks holding the same KV heads), then it decodes there. Knows no kind of hardware.
#include <deque>
#include <memory>
#include <vector>

#include "run/serving/serving_engine.h"

namespace hwsim {

// What a serving run is given besides its spec and chip.
struct ServingSetup {
  std::string framework;               // empty: the device's default
  double host_link_bandwidth = 0, host_copy_overhead = 0;
  Fabric* fabric = nullptr;            // null on one chip
  const SystemSpec* system = nullptr;
  bool record_distinct = true;
  // Each distinct shape's records kept (the caller reads them: pictures, a full JSON document, a
  // trace); otherwise its label, time and record count only (a run of a thousand distinct passes
  // held ~800 records each, most of its memory).
  bool keep_records = true;
};

class ServingDeployment : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ServingDeployment);
  // `system` and `fabric`: null on one chip. The engines' devices are built from `chip`.
  // `shared` gives the framework, the host link, the links and whether records are kept; its
  // spec, sequences, log and callbacks are the runner's own.
  ServingDeployment(sc_core::sc_module_name name, const ServeSpec& spec, const Config& chip, StepCache& cache,
                OpMemo& ops, const ServingSetup& setup);

  // After sc_start() and rethrow_simulation_failure().
  bool finished() const { return finished_ == std::int64_t(spec_.requests.size()); }
  ServingLog take_log() { return std::move(log_); }
  const std::vector<std::unique_ptr<ServingEngine>>& engines() const { return engines_; }
  bool reuse_limited() const { return reuse_limited_; }

 private:
  void build(const Config& chip);
  void limit_reuse();
  void dispatch();  // SC_THREAD: arrivals
  void stepped(ServingEngine& e, const StepOutcome& out);
  ServingEngine& route(const std::vector<ServingEngine*>& to, std::size_t& next, bool decode);
  void start_transfers(ServingEngine& decode);
  void transfer(std::size_t id, ServingEngine& from, ServingEngine& to);

  const ServeSpec& spec_;
  std::vector<ServeSeq> seqs_;
  ServingLog log_;
  ServingShared shared_;
  std::vector<std::unique_ptr<ServingEngine>> engines_;
  std::vector<ServingEngine*> front_, back_;   // take arrivals; decode instances (disaggregated)
  std::vector<std::deque<std::size_t>> inbox_; // per engine: handed off to it, waiting for its blocks
  std::vector<int> source_;                    // per request: the prefill instance holding its KV
  std::size_t next_front_ = 0, next_back_ = 0; // round robin
  std::int64_t finished_ = 0;
  bool reuse_limited_ = false;
};

}  // namespace hwsim
