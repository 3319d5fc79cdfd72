#pragma once
// Request files a serve workload reads (docs/serving.md): a trace (`trace=FILE`: each request's
// arrival and lengths, replayed as they are) and a dataset (`dataset=FILE`: lengths only; requests
// drawn from it as benchmark_serving samples a dataset, arriving at `rate`).
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/serve/serve_spec.h"

namespace hwsim {

// A trace: CSV (a header naming arrival_s, prompt_tokens, output_tokens, in any order, other
// columns ignored; then one request a line) or JSONL (one object a line with those keys); lines
// starting with '#' are comments. A malformed line is one error naming file:line and the field.
// Optional columns (keys): prefix_group and prefix_tokens (both or neither: the request's first
// prefix_tokens tokens are those of group prefix_group's common text; prefix_tokens <= prompt_tokens)
// and priority (a whole number, lower first); `columns` (when given) says which the file had.
std::vector<ServeRequest> read_serve_trace(const std::string& path, RequestFileColumns* columns = nullptr);

// A dataset: the same forms, arrival_s not needed (and ignored where present): the (prompt,
// output) length pairs in file order, as requests at arrival 0.
std::vector<ServeRequest> read_serve_dataset(const std::string& path, RequestFileColumns* columns = nullptr);

// `n` requests drawn from `pairs` without replacement (a seeded shuffle, benchmark_serving's
// random sample; past the dataset's size, from a fresh shuffle each round), arriving as a Poisson
// process of `rate` requests/s (infinite: all at 0). Deterministic in `seed`.
std::vector<ServeRequest> sample_dataset(const std::vector<ServeRequest>& pairs, std::int64_t n, double rate,
                                         std::uint64_t seed);

}  // namespace hwsim
