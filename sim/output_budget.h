#pragma once
// The most bytes one output file may take (`--max-output`, default kDefaultMaxOutput). A document
// or a trace that would pass it is refused with its numbers as early as its size is known: the
// records a long run streams while it runs (a generate's --detail full, its --trace), or the bytes
// of a document as they are written. A 32,768-token generate with --detail full wrote ~45 GB.
#include <string>

namespace hwsim {

// Far above any shipped workload's document (generate_llama8b --detail full: 143 MB).
inline constexpr double kDefaultMaxOutput = 4.0 * (1ull << 30);

// Sets the limit in bytes (the CLI's --max-output); must be positive and finite.
void set_output_limit(double bytes);
double output_limit();

// Throws UserError(workload): "WHAT passes N, more than the M that --max-output allows (HINT)"
// when `bytes` exceeds the limit. `hint` says what would make it smaller ("--detail summary").
void require_output(double bytes, const std::string& what, const std::string& hint);

}  // namespace hwsim
