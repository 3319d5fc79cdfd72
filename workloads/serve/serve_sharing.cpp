// What a serve workload's requests share and how they are ordered (docs/serving.md, "Prefix
// caching" and "Priorities"): shared_prefix=, prefix_caching=, scheduling=, priority=. Every mistake
// is one line naming the spec, the field and what would be right.
#include <fmt/format.h>

#include "sim/error.h"
#include "workloads/serve/serve_spec.h"
#include "workloads/spec.h"

namespace hwsim {

namespace {

// priority= draws come from their own stream, so that adding priorities leaves the lengths and
// arrivals the same seed draws unchanged: the seed's bits are mixed with this word (the 64-bit
// golden-ratio constant, splitmix64's increment) before seeding.
constexpr std::uint64_t kPriorityStream = 0x9E3779B97F4A7C15ull;
// The most a priority may be, either way from 0 (as a request file's priority column).
constexpr std::int64_t kMaxPriority = 1'000'000'000;

[[noreturn]] void fail(const WorkloadSpec& spec, const std::string& field, const std::string& what) {
  workload_error(fmt::format("workload '{}': {}: {}", spec.text(), field, what));
}

// shared_prefix=N: every request's first N prompt tokens are one common text (group 0).
void parse_shared_prefix(const WorkloadSpec& spec, const RequestFileColumns& file, ServeSpec& s) {
  if (!spec.has("shared_prefix")) return;
  if (file.prefix)
    fail(spec, "shared_prefix", "the request file gives prefix_group and prefix_tokens; leave shared_prefix out");
  const std::string text = spec.word("shared_prefix", "");
  const std::int64_t n = spec.non_negative_int("shared_prefix", 0);
  for (ServeRequest& r : s.requests) {
    if (n > r.prompt)
      fail(spec, "shared_prefix", fmt::format("{} tokens is longer than request {}'s prompt of {} (at most the "
                                              "shortest prompt)", text, r.id, r.prompt));
    if (n > 0) r.prefix_group = 0, r.prefix_tokens = n;
  }
}

// priority=PRIO: a whole number, uniform:A..B or normal:MEAN/STD/MIN..MAX (numbers from 0), drawn
// per request in the requests' order from the seed's priority stream.
void parse_priorities(const WorkloadSpec& spec, const RequestFileColumns& file, ServeSpec& s) {
  if (!spec.has("priority")) return;
  if (file.priority) fail(spec, "priority", "the request file gives each request's priority; leave priority out");
  LengthDistribution d = parse_length(spec.word("priority", ""), "priority", spec.text(), 0);
  if (std::max({d.value, d.hi}) > kMaxPriority)
    fail(spec, "priority", fmt::format("above {} (a whole number from 0, lower served first)", kMaxPriority));
  ServeRandom rng(s.seed ^ kPriorityStream);
  for (ServeRequest& r : s.requests) r.priority = d.draw(rng);
}

}  // namespace

const std::vector<std::string>& serve_sharing_fields() {
  static const std::vector<std::string> fields = {"shared_prefix", "prefix_caching", "scheduling", "priority"};
  return fields;
}

void parse_request_sharing(const WorkloadSpec& spec, const RequestFileColumns& file, ServeSpec& s) {
  s.prefix_caching = spec.boolean("prefix_caching", true);
  const std::string scheduling = spec.word("scheduling", "fcfs");
  if (scheduling != "fcfs" && scheduling != "priority")
    fail(spec, "scheduling", fmt::format("'{}' is not fcfs or priority (vLLM --scheduling-policy)", scheduling));
  s.priority_scheduling = scheduling == "priority";
  parse_shared_prefix(spec, file, s);
  parse_priorities(spec, file, s);
}

}  // namespace hwsim
