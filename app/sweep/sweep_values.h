#pragma once
// The values one swept key takes, from the text after `--vary KEY=`: a comma-separated list whose
// items are single values or ranges.
//   8,16,32            the values as written
//   1..256*2           geometric: 1, 2, 4, ... while ≤ 256 (factor > 1)
//   1TB/s..8TB/s:8     linear: 8 points from start to end, both included
//   0..1024+128        linear: start, start + step, ... while ≤ end
//   1..8               whole steps of 1
// Range bounds are quantities (sim/units: "1TB/s", "500 MHz", a bare number); both bounds must have
// one dimension. A generated value is written back with its unit (format_quantity, the fewest
// significant digits, 6 at least, that read back to the same number) so that config keys and
// workload fields read it as a user would write it.
// Errors throw UserError(usage) naming the key and the bad text: an empty range (start above end),
// a factor ≤ 1, a step ≤ 0, a count < 1, bounds of different dimensions, an empty item.
#include <string>
#include <vector>

namespace hwsim {

// At most this many values in all of a sweep's lists together: a typo such as 1..1e9, or 80 lists
// of a million values each, would otherwise exhaust memory before any key is checked.
inline constexpr std::size_t kMaxSweepValues = 1'000'000;

// `held`: the values the sweep's other lists already hold (they count toward kMaxSweepValues).
std::vector<std::string> expand_sweep_values(const std::string& key, const std::string& text, std::size_t held = 0);

}  // namespace hwsim
