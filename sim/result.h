#pragma once
// What a simulation produced, as plain structs (ChampSim style), the same for every kind of
// device. A device fills the raw fields of one WorkRecord per unit of work (a GPU kernel, a TPU
// fused op, later a collective); finalize() derives every metric once; printers in viz/ only
// format, never compute.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/result_inference.h"
#include "sim/result_llm.h"
#include "sim/result_power.h"
#include "sim/result_serving.h"
#include "sim/result_system.h"

namespace hwsim {

// Where a record's time went, in seconds averaged over the device's compute units (they sum to
// the record's duration): compute = math units busy; memory = units stalled on memory beyond their
// math; communication = waiting on links to other chips; overhead = launch/dispatch, pipeline
// fill and drain, per-unit set-up; idle = units without work (a tail, or work too small for the
// chip).
struct TimeBreakdown {
  double compute = 0;
  double memory = 0;
  double communication = 0;
  double overhead = 0;
  double idle = 0;
  double total() const { return compute + memory + communication + overhead + idle; }
};

// Bytes one memory level served (reads + writes at that level).
struct LevelTraffic {
  std::string level;  // as the device names it: "l2", "hbm", "vmem"
  double bytes = 0;
};

// How finalize() combines a detail over a run.
enum class Rollup {
  sum,         // counts: CTAs, folds
  time_mean,   // rates and fractions: weighted by each record's seconds
  none,        // per record only
};

// A kind-specific figure ("waves", "mxu_utilisation"), documented where the device fills it.
struct DetailKey {
  std::string key;
  Rollup rollup = Rollup::none;
};

// A detail rolled up over a run.
struct Detail {
  std::string key;
  double value = 0;
  Rollup rollup = Rollup::none;
};

// What a device's records hold, named once per device rather than in every record (records are
// kept by the hundred thousand): its memory levels near → far (the last is main memory) and its
// kind-specific details with their roll-up rules.
struct RecordSchema {
  std::vector<std::string> levels;
  std::vector<DetailKey> details;
  // Names of a record's energy components (`WorkRecord::energy_parts`), in the device's order:
  // "static", "sm_active", "tensor_flops", "hbm", ... Empty: the record's energy is one figure.
  std::vector<std::string> energy_parts;
};

// At most this many levels and details per record, kept inline (no allocation per record).
inline constexpr std::size_t kMaxLevels = 6, kMaxDetails = 8, kMaxEnergyParts = 8;

// A few numbers kept inline, aligned with the names of a RecordSchema.
template <std::size_t N>
class Figures {
 public:
  Figures() = default;
  Figures(std::initializer_list<double> values) {
    for (double v : values) push_back(v);
  }
  void push_back(double v) { values_.at(size_++) = v; }
  double operator[](std::size_t i) const { return values_[i]; }
  double& operator[](std::size_t i) { return values_[i]; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  double back() const { return values_[size_ - 1]; }
  const double* begin() const { return values_.data(); }
  const double* end() const { return values_.data() + size_; }

 private:
  std::array<double, N> values_{};
  std::size_t size_ = 0;
};

// The op class of a record replayed from a trace's recorded time (RecordedOp): no device model
// priced it, so it has no FLOPs, bytes or energy of its own; its bound is "recorded".
inline constexpr const char* kRecordedClass = "recorded";

struct WorkRecord {
  // filled by the device
  std::string name;          // op name, "L0.qkv_proj"
  std::string op_class;      // "gemm", "attention", "norm", ...
  std::string config;        // how it was lowered: "tile 128x256x64 st4 splitk1 cluster2"
  std::string dtype;         // math dtype
  std::int32_t device = 0;   // which simulated device ran it (a system's pipeline stage; 0 on one chip)
  double start = 0, end = 0; // seconds from the start of the step (start: its launch begins)
  double launch = 0;         // of which the launch or dispatch, before any work runs
  double hidden = 0;         // of which its device ran other records meanwhile (asynchronous
                             // communication overlapped with compute); its breakdown leaves it out
  double flops = 0;
  double min_bytes = 0;      // each input read once, each output written once (main memory)
  std::shared_ptr<const RecordSchema> schema;  // names of `traffic` and `details` (the device's)
  Figures<kMaxLevels> traffic;        // bytes per schema->levels, near → far; the last is main memory
  double peak_flop_rate = 0;          // of the device for this record's dtype
  double peak_memory_bandwidth = 0;   // main memory, datasheet
  TimeBreakdown breakdown;
  double energy = 0;         // joules
  Figures<kMaxEnergyParts> energy_parts;  // joules per schema->energy_parts; they sum to `energy`
  double clock = 0;          // Hz: the device's average clock over the record; 0 = not modelled
  double throttled = 0;      // seconds of the record the clock governor held the clock below max
  double over_limit = 0;     // joules above the power limit in control periods the governor's
                             // clock did not hold (its lag: it sets a period's clock from those before)
  Figures<kMaxDetails> details;       // values per schema->details
  // derived by finalize()
  double seconds = 0;
  double memory_bytes = 0;           // main-memory traffic (the last level of `traffic`)
  double roofline_floor = 0;         // max(flops / peak, min_bytes / peak bandwidth)
  double arithmetic_intensity = 0;   // flops / min_bytes
  double ridge_point = 0;            // peak_flop_rate / peak_memory_bandwidth
  std::string bound;                 // "compute" or "memory" (by intensity vs ridge)
  double achieved_flop_rate = 0, memory_bandwidth_achieved = 0;

  double bytes_at(std::string_view level) const;   // 0 when the level is not listed
  double detail(std::string_view key) const;       // 0 when absent
  // Sets the detail its schema names `key` (a detail the schema lacks is a bug: logic_error).
  void set_detail(std::string_view key, double value);
};

struct StepResult {
  std::string label;
  std::vector<WorkRecord> records;  // empty once the run is over when the runner did not keep
                                    // them (a run of several steps: app/simulate.h)
  double seconds = 0;        // filled by the runner: wall time of the step
  std::size_t record_count = 0;  // records the step produced, kept or not (set by ResultBuilder)
};

struct RunResult {
  // filled by the runner from the device
  std::string level;         // fidelity level that produced it: "tile", "warp", "bound"
  std::string device_kind;   // "gpu", "systolic"
  std::string unit;          // what one record is: "kernel", "fused op"
  std::string summary_detail;// the detail a text table shows per record ("waves", "mxu_utilisation")
  std::string compute_unit;  // what the breakdown averages over ("SMs", "TensorCores")
  std::vector<std::string> memory_levels;  // near → far; the last is main memory
  std::vector<double> memory_level_bandwidth;  // peak bytes/s of each of memory_levels (the chip
                                              // file's figure; 0 = not given)
  double tdp = 0;            // the chip's power limit (power.tdp)
  double idle_power = 0;     // watts one device draws with nothing running (0 = not modelled)
  double max_clock = 0;      // Hz: the device's maximum clock (0 = it models no clock)
  std::string peak_clock;    // the clock the peaks assume (DeviceInfo::peak_clock)
  std::vector<StepResult> steps;
  // derived by ResultBuilder::finish. The figures below are one device's: on several devices (a
  // system's pipeline stages, a serving deployment's instances) the average over the devices the
  // run used, each simulated device standing for its ranks; RunResult::system has the totals.
  double seconds = 0;        // the run's span on its timeline
  double devices = 1;        // devices the figures average over (1 on one chip)
  double flops = 0, min_bytes = 0;
  std::vector<LevelTraffic> traffic;   // per level, summed over records
  std::vector<double> bandwidth;       // bytes/s at each level of `traffic`: bytes / seconds
  double memory_bytes = 0;             // main memory
  double roofline_floor = 0; // the busiest device's sum of record floors: no run is faster
  double times_floor = 0;    // seconds / roofline_floor: how far from the physical limit
  double achieved_flop_rate = 0;
  double percent_of_peak = 0;      // achieved / peak of the dominant dtype
  double peak_flop_rate = 0;       // of the dtype holding most FLOPs
  double peak_memory_bandwidth = 0;
  double memory_bandwidth_achieved = 0;
  double arithmetic_intensity = 0, ridge_point = 0;
  std::string bound;         // "compute" or "memory" (intensity vs ridge); "communication" for a
                             // run with neither FLOPs nor bytes (a collective)
  TimeBreakdown breakdown;   // summed over records, plus gaps between records as overhead (one
                             // device) or idle (several); sums to `seconds`
  std::vector<Detail> details;  // records' details rolled up (Rollup::none ones left out)
  double energy = 0;         // joules: the records', and idle_power over the time none ran
                             // (power.by_part names both; they sum to it)
  double average_power = 0;  // watts: energy / seconds
  bool above_tdp = false;    // average power over the limit (a device without a clock governor;
                             // a GPU lowers its clock instead)
  PowerMetrics power;        // energy by component, clocks, throttling, power over time
  LlmMetrics llm;            // language-model metrics (llm.present false for other workloads)
  SystemMetrics system;      // runs on a system of devices (system.present false on one chip)
  InferenceMetrics inference;  // devices with a static memory plan (an MCU): per-inference figures
  ServingMetrics serving;      // `serve` runs: requests over time (serving.present false otherwise)

  double bytes_at(std::string_view level) const;   // run traffic at a level, 0 when not listed
  double detail(std::string_view key) const;
};

// Receives each step of a run as soon as it has run, its records finalized (ResultBuilder::
// add_step): the JSON and trace writers format them then, so a long run need not keep them.
class StepSink {
 public:
  virtual ~StepSink() = default;
  virtual void add_step(const StepResult& step) = 0;
};

// Derives a record's own figures (seconds, main-memory bytes, floor, intensity, ridge, bound, rates).
// `fastest_level`: bytes/s of the device's fastest memory level (0: not known). The memory floor is
// the compulsory bytes at main-memory speed, less those a cache served (a repeated call on data
// still in L2 reads none from HBM): min(min_bytes, main-memory bytes) at main-memory speed, and
// every compulsory byte at least through the fastest level.
void finalize_record(WorkRecord& k, double fastest_level = 0);

// Computes every derived field of `result` from the raw ones (LLM metrics apart: run/metrics): a
// ResultBuilder (sim/result_builder.h) over its steps, on one device.
void finalize(RunResult& result);

}  // namespace hwsim
