// Contention on a shared resource, through the CLI: rtx4090x2_pcie joins two GPUs through a PCIe
// host bridge without peer-to-peer, so every byte is staged through host memory and crosses the
// 83 GB/s bridge twice. Its x16 links give 16 × 1.97 GB/s × 0.83 = 26.16 GB/s per direction.
// - send_recv 1 GiB (one transfer): min(26.16, 83 / 2 = 41.5) = 26.16 GB/s, so busbw ≈ 26.16.
// - all_reduce 1 GiB on 2 ranks, Simple protocol (ring: each round 0→1 and 1→0 at once, S/2
//   each; a tree moves the same bytes): the two transfers share the bridge, 2 × 2 × r ≤ 83 GB/s,
//   r = 20.75 GB/s each; busbw = algbw at n = 2 ≈ 20.75 GB/s (latencies are ~20 µs of ~50 ms).
// - with scale_up.p2p = true the bridge is crossed once: 2 × r ≤ 83 allows 41.5, the links cap
//   both at 26.16 GB/s again.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
double busbw(const std::string& args, const std::string& file) {
  auto json = scratch_dir() / file;
  CliRun r = run_hwsim("--system rtx4090x2_pcie --set collective.launch_overhead=3us " + args + " --quiet --json '" + json.string() + "'");
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(read_text(json))["result"]["collective"]["busbw"].get<double>();
}
}  // namespace

TEST_CASE("cli system: both directions of an all_reduce share a staged PCIe bridge") {
  const double link = 16 * 1.97 * 0.83;  // GB/s
  double alone = busbw("-w collective:op=send_recv,bytes=1GiB", "send.json");
  double both = busbw("-w collective:op=all_reduce,bytes=1GiB,ranks=2,proto=Simple", "reduce.json");
  double p2p = busbw("-w collective:op=all_reduce,bytes=1GiB,ranks=2,proto=Simple --set scale_up.p2p=true", "p2p.json");
  CHECK(alone == doctest::Approx(link).epsilon(0.002));
  CHECK(both == doctest::Approx(83.0 / 4).epsilon(0.002));
  CHECK(p2p == doctest::Approx(link).epsilon(0.002));
}
