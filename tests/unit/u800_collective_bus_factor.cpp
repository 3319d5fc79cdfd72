// nccl-tests' bus bandwidth (doc/PERFORMANCE.md there): busbw = algbw × factor, the factor making
// busbw comparable with the link rate whatever the op and the rank count:
//   all_reduce 2(n-1)/n; all_gather, reduce_scatter, all_to_all (n-1)/n; broadcast, send_recv 1.
// And the bytes each rank sends in the bandwidth-optimal algorithm are size × that factor.
#include <doctest/doctest.h>

#include "ops/collective.h"

using namespace hwsim;

TEST_CASE("cluster collective: bus bandwidth factors at 2 and 8 ranks follow nccl-tests") {
  // n = 2: all_reduce 2·1/2 = 1; the (n-1)/n ops 1/2.
  CHECK(bus_bandwidth_factor(CollectiveKind::all_reduce, 2) == doctest::Approx(1.0));
  CHECK(bus_bandwidth_factor(CollectiveKind::all_gather, 2) == doctest::Approx(0.5));
  CHECK(bus_bandwidth_factor(CollectiveKind::reduce_scatter, 2) == doctest::Approx(0.5));
  CHECK(bus_bandwidth_factor(CollectiveKind::all_to_all, 2) == doctest::Approx(0.5));
  CHECK(bus_bandwidth_factor(CollectiveKind::broadcast, 2) == doctest::Approx(1.0));
  CHECK(bus_bandwidth_factor(CollectiveKind::send_recv, 2) == doctest::Approx(1.0));
  // n = 8: all_reduce 2·7/8 = 1.75; the (n-1)/n ops 7/8 = 0.875; broadcast and send_recv 1.
  CHECK(bus_bandwidth_factor(CollectiveKind::all_reduce, 8) == doctest::Approx(1.75));
  CHECK(bus_bandwidth_factor(CollectiveKind::all_gather, 8) == doctest::Approx(0.875));
  CHECK(bus_bandwidth_factor(CollectiveKind::reduce_scatter, 8) == doctest::Approx(0.875));
  CHECK(bus_bandwidth_factor(CollectiveKind::all_to_all, 8) == doctest::Approx(0.875));
  CHECK(bus_bandwidth_factor(CollectiveKind::broadcast, 8) == doctest::Approx(1.0));
  CHECK(bus_bandwidth_factor(CollectiveKind::send_recv, 8) == doctest::Approx(1.0));
}

TEST_CASE("cluster collective: bytes sent per rank are the size times the bus factor") {
  CollectiveOp c;
  c.bytes = 1024.0 * 1024 * 1024;  // 1 GiB
  c.ranks = 8;
  c.kind = CollectiveKind::all_reduce;
  CHECK(bytes_sent_per_rank(c) == doctest::Approx(1.75 * 1073741824.0));  // 2·7/8 of the buffer
  c.kind = CollectiveKind::all_gather;
  CHECK(bytes_sent_per_rank(c) == doctest::Approx(0.875 * 1073741824.0));  // 7 pieces of S/8
  c.kind = CollectiveKind::broadcast;
  CHECK(bytes_sent_per_rank(c) == doctest::Approx(1073741824.0));
}

TEST_CASE("cluster collective: op names parse, with the nccl-tests spellings as aliases") {
  CHECK(parse_collective("all_reduce") == CollectiveKind::all_reduce);
  CHECK(parse_collective("alltoall") == CollectiveKind::all_to_all);
  CHECK(parse_collective("sendrecv") == CollectiveKind::send_recv);
  CHECK_FALSE(parse_collective("allreduce_").has_value());
  for (const auto& name : collective_names()) CHECK(collective_name(*parse_collective(name)) == name);
}
