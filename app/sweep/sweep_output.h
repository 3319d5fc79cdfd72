#pragma once
// A sweep's output file: CSV (".csv", or "-" for stdout) or JSON Lines (".jsonl"), one row per
// point (sweep_row.h). CSV: a header line, then rows; cells holding a comma, a quote or a line
// break are quoted RFC 4180 style. JSONL: one object per line, the same fields (LLM metrics only
// where present). `--resume` reads the rows already there back (read_done_rows).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/sweep/sweep_spec.h"

namespace hwsim {

enum class SweepFormat { csv, jsonl };

// By extension; UserError(usage) for any other.
SweepFormat sweep_format(const std::string& path);

// index, the varied keys, status, sweep_metric_columns(), error.
std::vector<std::string> sweep_columns(const SweepSpec& spec);

// The header line ("" for JSONL) and one row's line, each ending in '\n'.
std::string sweep_header(SweepFormat format, const std::vector<std::string>& columns);
std::string sweep_line(SweepFormat format, const std::vector<std::string>& columns, const nlohmann::ordered_json& row);

// The most bytes of an earlier output --resume reads back (about 3 million rows).
inline constexpr std::uint64_t kMaxResumedBytes = std::uint64_t(1) << 30;

// The rows of an earlier run of the same sweep in `path` (none when it does not exist), by point
// index, as their lines. `path` must be a regular file within kMaxResumedBytes (UserError(io)).
// Throws UserError(usage) when the file is another sweep's: other columns, an index beyond the
// points, or varied values that differ from this sweep's point of that index; or when a row's
// figures are not a run's (a status other than ok or error, a metric negative or not a number,
// seconds not positive: an edited row would be kept as a result).
std::map<std::size_t, std::string> read_done_rows(const std::string& path, SweepFormat format,
                                                  const std::vector<std::string>& columns,
                                                  const SweepSpec& spec, const std::vector<SweepPoint>& points);

// Splits one CSV line into cells (quotes undone).
std::vector<std::string> split_csv_line(const std::string& line);

}  // namespace hwsim
