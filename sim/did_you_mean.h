#pragma once
// "did you mean ...?" suggestions for unknown names (keys, workloads, models).
#include <string>
#include <string_view>
#include <vector>

namespace hwsim {

// Edit distance (Levenshtein) between two strings.
std::size_t edit_distance(std::string_view a, std::string_view b);

// Words longer than this get no suggestion (no key or name is nearly so long).
inline constexpr std::size_t kMaxSuggestedWord = 256;

// The candidate closest to `word`, if it is close enough to be a plausible typo; else "".
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

// " (did you mean X?)" or "" when nothing is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

// "a, b, c" for listing valid choices in error lines.
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");

}  // namespace hwsim
