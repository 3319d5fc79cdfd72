#pragma once
// What a sweep runs: one chip or system, one workload, base --set overrides, and the keys it
// varies with their values; expanded into points (the cartesian product, or `zip`: the i-th value
// of every key together). Built from the command line (--vary) and/or a sweep file (sweep_file.h).
#include <string>
#include <utility>
#include <vector>

namespace hwsim {

// A key a sweep varies: a config key ("memory.hbm.bandwidth", on a system also a system key), a
// workload field ("workload.batch"), or what runs it: `chip` or `system` (shipped names or files),
// to compare chips in one sweep.
struct SweepAxis {
  std::string key;
  std::vector<std::string> values;
  bool is_workload_field() const { return key.rfind("workload.", 0) == 0; }
  bool is_target() const { return key == "chip" || key == "system"; }
  std::string field() const { return key.substr(9); }  // "batch" of "workload.batch"
};

struct SweepSpec {
  std::string chip, system, workload;
  std::vector<std::string> overrides;  // --set KEY=VALUE, the same for every point
  std::vector<SweepAxis> axes;         // in the order given; the first varies slowest
  bool zip = false;
};

// One point: its index (row order) and a value per axis, in axis order.
struct SweepPoint {
  std::size_t index = 0;
  std::vector<std::string> values;
};

// At most this many points: beyond it a sweep is surely a typo (and its rows would not fit memory).
// (A point takes from a few milliseconds to minutes: a million are a day's work on one core.)
inline constexpr std::size_t kMaxSweepPoints = 1'000'000;

// Parses "KEY=VALUES" (sweep_values.h); UserError(usage) on a missing '=' or key.
// `held`: the values the sweep's other lists hold (sweep_values.h bounds them all).
SweepAxis parse_vary(const std::string& text, std::size_t held = 0);

// Every point, index order. Throws UserError(usage): no axis, zip with lists of different
// lengths, more than kMaxSweepPoints points, a key given twice.
std::vector<SweepPoint> sweep_points(const SweepSpec& spec);

// The workload spec text of a point: the base spec with the point's workload fields set
// ("decode_llama8b" + batch=8 → "decode_llama8b:batch=8"; a field already there is replaced).
std::string point_workload(const SweepSpec& spec, const SweepPoint& point);
// The --set overrides of a point: the base ones, then KEY=VALUE for every config axis.
std::vector<std::string> point_overrides(const SweepSpec& spec, const SweepPoint& point);
// The chip and system a point runs on: the spec's, or its `chip`/`system` axis's value.
std::pair<std::string, std::string> point_target(const SweepSpec& spec, const SweepPoint& point);

}  // namespace hwsim
