#pragma once
// Parsing TOML text (chip, system and sweep files) safely: toml++ builds nested tables by
// recursion, so a key of 60,000 dotted parts or tables nested 60,000 deep overflow the stack while
// they are built or freed. Before toml++ sees the text, every line is scanned for its nesting
// (dotted key parts plus open brackets and braces); deeper than kMaxTomlNesting is one error line.
#include <string>

#include "sim/error.h"

namespace toml { inline namespace v3 { class table; } }

namespace hwsim {

// Far deeper than any configuration (the deepest key has 4 parts), far shallower than a stack.
inline constexpr int kMaxTomlNesting = 64;

// Parses `text` read from `path`; a syntax error or a nesting beyond the limit is a UserError with
// `code` and "PATH:LINE:COLUMN: ...".
toml::table parse_toml_text(const std::string& text, const std::string& path, ExitCode code);

}  // namespace hwsim
