// The lines a --sample-sms subset's blocks touch are counted by running the blocks functionally
// (models/gpu/warp/footprint_count.h): a line of one block is that block's, a line of several is
// shared. What the timed run alone can report (a bad address, a barrier deadlock, a runaway loop)
// makes the count give up, and the launch counts with a timed run instead. That the count equals
// the timed run's, bit for bit, is u415's: its subset cases (stream_copy, stream_read,
// strided_read) take this path.
#include <doctest/doctest.h>

#include <map>

#include "models/gpu/warp/footprint_count.h"
#include "models/gpu/warp/kernel_args.h"
#include "sim/error.h"
#include "u4_warp_support.h"

using namespace hwsim::warp;

namespace {

// A launch of `prog` as prepare_memory sets it up, without timing.
struct Launch {
  Program prog;
  GlobalMemory memory;
  std::vector<std::uint64_t> values;
  std::vector<LaneFn> fns;
  FootprintLaunch launch;

  Launch(Program p, std::int64_t grid, std::int64_t block, std::map<std::string, std::string> args) : prog(std::move(p)) {
    LaunchArgs a;
    a.grid = grid;
    a.block = block;
    a.args = std::move(args);
    values = bind_args(prog, a, memory);
    fns = decode_lane_functions(prog);
    launch.ctx.program = &prog;
    launch.ctx.memory = &memory;
    launch.ctx.ntid = std::uint32_t(block);
    launch.ctx.nctaid = std::uint64_t(grid);
    launch.ctx.lane_fns = fns.data();
    launch.values = &values;
    launch.max_warp_instructions = 1'000'000;
    launch.max_instructions = 100'000'000;
  }
  bool count(std::uint64_t blocks, Footprint& f) {
    return count_footprint(launch, blocks, [](std::uint64_t k) { return k; }, f);
  }
};

// Lines per block: owner value (block + 1) -> lines it alone touched.
std::map<std::uint64_t, int> lines_per_block(const Footprint& f) {
  std::map<std::uint64_t, int> n;
  for (const auto& [line, owner] : f.owner) ++n[owner];
  return n;
}

}  // namespace

TEST_CASE("functional footprint: rows private to each block are that block's lines") {
  // softmax: block r reads x's row r and writes y's row r, 1024 floats each = 32 lines of 128 B
  Launch l(load_kernel("workloads/kernels/softmax.hwk"), 8, 32, {{"cols", "1024"}});
  Footprint f;
  REQUIRE(l.count(8, f));
  CHECK(f.shared == 0);
  CHECK(f.owner.size() == 8 * 64);
  auto per = lines_per_block(f);
  CHECK(per.size() == 8);
  for (std::uint64_t b = 1; b <= 8; ++b) CHECK(per[b] == 64);
}

TEST_CASE("functional footprint: data every block reads is shared, each block's rows its own") {
  // naive matmul n=64, 256 threads a block: a block computes 4 rows of C from 4 rows of A (8
  // lines) and all of B (128 lines), and writes its 4 rows of C (8 lines)
  Launch l(load_kernel("workloads/kernels/matmul_naive.hwk"), 16, 256, {{"n", "64"}});
  Footprint f;
  REQUIRE(l.count(16, f));
  CHECK(f.shared == 128);
  CHECK(f.owner.size() == 128 + 16 * 16);
  auto per = lines_per_block(f);
  CHECK(per[0] == 128);
  for (std::uint64_t b = 1; b <= 16; ++b) CHECK(per[b] == 16);
}

TEST_CASE("functional footprint: a warp spinning on a flag another warp of its block sets ends") {
  // warp 0 waits until warp 1 has written the flag: warps take turns, so the count ends long
  // before any limit
  Launch l(parse_kernel(R"(.kernel flag
.param buf out f32 = 64:zeros
.shared u32 s[1]
.reg u32 v
.reg u64 p
.reg pred first
    setp.lt.u32 first, %tid, 32
    @first bra WAIT
    mov.u32 v, 1
    st.shared.u32 [s], v
    exit
WAIT:
    ld.shared.u32 v, [s]
    setp.eq.u32 first, v, 0
    @first bra WAIT
    st.global.u32 [out], v
    exit
)", "flag.hwk"), 1, 64, {});
  Footprint f;
  CHECK(l.count(1, f));
  CHECK(f.owner.size() == 1);
}

TEST_CASE("functional footprint: what only the timed run reports makes the count give up") {
  auto gives_up = [](const char* src, std::uint64_t max_warp_instructions = 1'000'000) {
    Launch l(parse_kernel(src, "e.hwk"), 1, 64, {});
    l.launch.max_warp_instructions = max_warp_instructions;
    Footprint f;
    return !l.count(1, f);
  };
  CHECK(gives_up(R"(.kernel store_past_end
.param buf y u32 = 48:zeros
.reg u64 p
    mad.wide.u32 p, %tid, 4, y
    st.global.u32 [p], %tid
)"));
  CHECK(gives_up(R"(.kernel deadlock
.reg pred p
    setp.ge.u32 p, %tid, 32
    @p exit
    bar.sync
)"));
  CHECK(gives_up(R"(.kernel spin
L:
    bra L
)", 5000));
  // a barrier every warp reaches: counted
  CHECK_FALSE(gives_up(R"(.kernel fine
.reg pred p
    setp.ge.u32 p, %tid, 32
    bar.sync
    exit
)"));
}

TEST_CASE("functional footprint: a subset's bad address is still reported by the timed run") {
  // 64 MiB of x (more than an L2 partition) so the subset counts its footprint; block 132, the
  // subset's second, reads past x's end. The functional count meets warp 0's load first; the
  // timed run issues warp 1's first (its sub-partition goes first that cycle) and names it.
  const char* src = R"(.kernel oob
.param buf x f32 = 16777216:zeros
.reg u32 gid
.reg u64 off, p
.reg f32 v
    mad.u32 gid, %ctaid, %ntid, %tid
    mul.wide.u32 off, gid, 262144
    add.u64 p, x, off
    ld.global.f32 v, [p]
)";
  LaunchOptions o;
  o.args.grid = 264;
  o.args.block = 64;
  o.sample_sms = 1;
  std::string error;
  try {
    simulate_kernel(test::h100(), parse_kernel(src, "e.hwk"), o);
  } catch (const hwsim::UserError& e) {
    error = e.what();
  }
  INFO(error);
  CHECK(error.find("kernel oob: out-of-bounds load at e.hwk:9 `ld.global.f32 v, [p]`: block 132, thread 32 (warp 1, lane 0)") == 0);
}
