#pragma once
// Measurement records (JSON Lines, the format of shared/calibration/README.md) and the kinds the
// simulator understands. A kind adapter turns a record into a workload spec (and, optionally, a
// chip override); records of unknown kinds, or without `seconds`, are skipped and counted.
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hwsim {

struct Measurement {
  std::string kind;
  double seconds = 0;
  nlohmann::json fields;   // the whole record
  int line = 0;            // 1-based line in its file
  std::string file;        // the file it was read from
};

// Typed fields of a record, for the kind adapters (the one place record values are checked):
// nullopt when the field is absent or null; a field of the wrong type or out of range is a
// UserError(io) "FILE:LINE: FIELD: what is wrong (what would be right)". Whole numbers lie in
// [0, kMaxRecordWhole] (exact in a double; a workload field's own range is checked when the spec
// it makes is parsed); numbers are finite.
inline constexpr double kMaxRecordWhole = 9007199254740992.0;  // 2^53
std::optional<std::int64_t> record_whole(const Measurement& m, const std::string& key, std::int64_t lowest = 0);
std::optional<double> record_number(const Measurement& m, const std::string& key);
std::optional<std::string> record_text(const Measurement& m, const std::string& key);
// A text that goes into a workload spec as one value (a model's name or file): without the spec's
// separators (',' '=' ':') or spaces, so a record cannot smuggle fields into the spec
// ("gpt2,layers=4096").
std::optional<std::string> record_word(const Measurement& m, const std::string& key);
std::optional<bool> record_flag(const Measurement& m, const std::string& key);
// A list of strings (a record's `set` overrides); nullopt when absent or null.
std::optional<std::vector<std::string>> record_texts(const Measurement& m, const std::string& key);
// The one error a bad record field gets: "FILE:LINE: KEY: what" (UserError, io).
[[noreturn]] void record_fail(const Measurement& m, const std::string& key, const std::string& what);

// What to simulate for a record: the workload spec, and how to read the prediction (seconds)
// from the run's JSON document (default: result.seconds).
struct PredictionPlan {
  PredictionPlan() = default;
  explicit PredictionPlan(std::string spec, std::function<double(const nlohmann::json&)> reader = {})
      : workload(std::move(spec)), predicted_seconds(std::move(reader)) {}

  std::string workload;
  std::function<double(const nlohmann::json& document)> predicted_seconds;
  // Optional: a quantity other than the record's `seconds` (an energy record's joules per call, a
  // power-capped run's clock). `measured` reads it from the record and `predicted_seconds` (despite
  // its name) from the run; `quantity` names its unit for reports: "seconds", "joules" or "hertz".
  std::function<double(const Measurement&)> measured;
  std::string quantity = "seconds";
  // Optional: a family within the kind ("gemm", "hbm", "decode"): the summary gives one line per
  // kind and family ("energy gemm").
  std::string family;
  // Optional: a simulation other than a workload run (e.g. a kernel program on the warp model).
  // Called in the child process with the validate run's chip and --set overrides; returns the run's
  // JSON document. `workload` then only describes the run in reports.
  std::function<std::string(const std::string& chip, const std::vector<std::string>& overrides)> simulate;
  // The device kind the plan needs (a kernel program needs a "gpu"); empty: any kind. Records of a
  // plan the chip's kind cannot run are skipped and counted, not failed.
  std::string device_kind;
  // true: the record is of several devices (a collective) and runs on the validate run's --system;
  // such records are skipped on a --chip run, and single-device records on a --system run.
  bool needs_system = false;
};

using MeasurementAdapter = std::function<std::optional<PredictionPlan>(const Measurement&)>;

class MeasurementKinds {
 public:
  static std::map<std::string, MeasurementAdapter>& adapters();
  // kind → what a record of it measures (hwsim list kinds).
  static std::map<std::string, std::string>& descriptions();
  static bool add(const std::string& kind, std::string description, MeasurementAdapter adapter);
};

// Reads every line of a .jsonl file; a malformed line is a UserError naming file and line.
std::vector<Measurement> read_measurements(const std::string& path);

#define HWSIM_REGISTER_MEASUREMENT(kind, description, adapter)                         \
  static const bool HWSIM_REGISTER_CONCAT(measurement_registered_, __LINE__) =        \
      ::hwsim::MeasurementKinds::add(kind, description, adapter)

}  // namespace hwsim

#include "sim/registry.h"
