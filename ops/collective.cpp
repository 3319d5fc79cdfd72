#include "ops/collective.h"

#include <array>

namespace hwsim {

namespace {
constexpr std::array<std::string_view, 6> kNames = {"all_reduce", "all_gather", "reduce_scatter",
                                                     "all_to_all", "broadcast", "send_recv"};
}

std::string_view collective_name(CollectiveKind k) { return kNames[static_cast<std::size_t>(k)]; }

std::optional<CollectiveKind> parse_collective(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<CollectiveKind>(i);
  if (name == "sendrecv") return CollectiveKind::send_recv;
  if (name == "alltoall") return CollectiveKind::all_to_all;
  return std::nullopt;
}

std::vector<std::string> collective_names() { return {kNames.begin(), kNames.end()}; }

std::string_view axis_name(ParallelAxis a) {
  constexpr std::array<std::string_view, 5> names = {"tp", "pp", "ep", "dp", "world"};
  return names[static_cast<std::size_t>(a)];
}

double bus_bandwidth_factor(CollectiveKind k, std::int64_t ranks) {
  double n = double(ranks);
  switch (k) {
    case CollectiveKind::all_reduce: return 2.0 * (n - 1) / n;
    case CollectiveKind::all_gather:
    case CollectiveKind::reduce_scatter:
    case CollectiveKind::all_to_all: return (n - 1) / n;
    case CollectiveKind::broadcast:
    case CollectiveKind::send_recv: return 1.0;
  }
  return 1.0;
}

double bytes_sent_per_rank(const CollectiveOp& c) { return c.bytes * bus_bandwidth_factor(c.kind, c.ranks); }

}  // namespace hwsim
