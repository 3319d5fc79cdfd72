// The occupancy limiter names the limits that bind (softmax at 32 threads per block is bound by
// the 32-blocks-per-SM limit, not shared memory), and the Chrome trace names its tracks, merges a
// warp's consecutive intervals and stays small for a classroom kernel.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "viz/warp/kernel_report.h"
#include "u4_warp_support.h"

using namespace hwsim::warp;

TEST_CASE("occupancy: softmax --block 32 is bound by the blocks-per-SM limit") {
  Program softmax = load_kernel("workloads/kernels/softmax.hwk");
  Occupancy o = compute_occupancy(test::h100(), softmax, 32);
  // 1 warp per block: 64 warps allow 64 blocks, shared memory (1 KiB reserve per block) 227;
  // the H100's 32 resident blocks per SM bind
  CHECK(o.limit_ctas == 32);
  CHECK(o.limit_warps == 64);
  CHECK(o.limit_shared > 32);
  CHECK(o.ctas_per_sm == 32);
  CHECK(o.limiter == "blocks");
  CHECK(o.theoretical == doctest::Approx(0.5));
}

TEST_CASE("occupancy: two limits that bind together are both named") {
  Program small = parse_kernel(".kernel k\n.reg u32 a\n", "k.hwk");
  Occupancy o = compute_occupancy(test::h100(), small, 64);  // 2 warps: 64 / 2 = 32 blocks, and 32 blocks
  CHECK(o.ctas_per_sm == 32);
  CHECK(o.limiter == "warps and blocks");
}

namespace {

std::unique_ptr<KernelRun> traced_matmul(int n) {
  LaunchOptions o;
  o.args.grid = (n * n + 255) / 256;
  o.args.block = 256;
  o.args.args = {{"n", std::to_string(n)}};
  o.trace = true;
  return simulate_kernel(test::h100(), load_kernel("workloads/kernels/matmul_naive.hwk"), o);
}

}  // namespace

TEST_CASE("trace: SMs and warps are named tracks; a classroom matmul's trace is a few MB at most") {
  auto r = traced_matmul(64);
  std::string text = chrome_trace(*r);
  CHECK(text.size() < 3'000'000);  // the per-instruction trace of this kernel was 28 MB
  auto doc = nlohmann::json::parse(text);
  std::set<std::string> process_names, thread_names;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] != "M") continue;
    if (e["name"] == "process_name") process_names.insert(e["args"]["name"].get<std::string>());
    if (e["name"] == "thread_name") thread_names.insert(e["args"]["name"].get<std::string>());
  }
  CHECK(process_names.count("SM 0"));
  CHECK(thread_names.count("block 0 warp 0"));
  CHECK(thread_names.count("block 0 warp 7"));  // 256 threads: warps 0..7
}

TEST_CASE("trace: a warp's consecutive stalls of one reason are one event, runs count their instructions") {
  auto r = traced_matmul(64);
  const KernelStats& s = r->stats;
  REQUIRE_FALSE(s.events.empty());
  std::map<int, const TraceEvent*> last;  // per track, its previous event
  std::uint64_t run_instructions = 0;
  for (const TraceEvent& e : s.events) {
    CHECK(e.end > e.start);
    if (e.what == kTraceRun) run_instructions += e.count;
    auto it = last.find(e.track);
    if (it != last.end()) {
      CHECK(e.start >= it->second->end);  // a track's events do not overlap
      const bool same_stall = e.what != kTraceRun && e.what == it->second->what && e.start == it->second->end;
      CHECK_FALSE(same_stall);            // would have been merged
    }
    last[e.track] = &e;
  }
  // every instruction a traced warp issued is in some run: at most all instructions of the kernel
  CHECK(run_instructions > 0);
  CHECK(run_instructions <= s.warp_instructions);
}
