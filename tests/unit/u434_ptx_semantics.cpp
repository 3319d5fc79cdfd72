// PTX's instructions on the warp model with real values: 2-D indices, bit operations, votes,
// shuffles with their clamp operand, the atomic family, cvt's rounding, f64, bytes, the generic
// space.
#include <doctest/doctest.h>

#include "models/gpu/warp/ptx_reader.h"
#include "tests/unit/u4_warp_support.h"

using namespace hwsim;
using namespace hwsim::warp;

namespace {

// A kernel `k(unsigned* out)` writing out[thread] = the value of `body`'s %r9 for each thread of
// the block (threads numbered x fastest).
std::vector<double> per_thread(const std::string& body, const std::string& block, int threads, const std::string& extra_params = "",
                               std::map<std::string, std::string> args = {}) {
  std::string src = ".visible .entry k(\n .param .u64 out" + extra_params + "\n)\n{\n"
                    " .reg .pred %p<8>;\n .reg .b32 %r<20>;\n .reg .b64 %rd<8>;\n .reg .f32 %f<8>;\n .reg .f64 %fd<4>;\n .reg .b16 %rs<4>;\n"
                    " mov.u32 %r0, %tid.x;\n mov.u32 %r1, %tid.y;\n mov.u32 %r2, %ntid.x;\n mad.lo.s32 %r3, %r1, %r2, %r0;\n" +
                    body +
                    " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n mul.wide.u32 %rd3, %r3, 4;\n"
                    " add.s64 %rd4, %rd2, %rd3;\n st.global.u32 [%rd4], %r9;\n ret;\n}\n";
  Program p = parse_ptx(src, "t.ptx", "");
  LaunchOptions o;
  parse_dims(block, "--block", o.args.block_dim);
  o.args.block = threads;
  o.args.grid = 1;
  args["0"] = "u32[" + std::to_string(threads) + "]:zeros";
  o.args.args = args;
  auto r = simulate_kernel(test::h100(), p, o);
  return test::values(*r, "0");
}

}  // namespace

TEST_CASE("ptx semantics: 2-D thread indices, x fastest") {
  auto v = per_thread(" mov.u32 %r4, %tid.y;\n mul.lo.s32 %r9, %r4, 100;\n add.s32 %r9, %r9, %r0;\n", "8,4", 32);
  CHECK(v[0] == 0);
  CHECK(v[9] == 101);   // x 1, y 1
  CHECK(v[31] == 307);  // x 7, y 3
  auto n = per_thread(" mov.u32 %r9, %ntid.y;\n", "8,4", 32);
  CHECK(n[5] == 4);
}

TEST_CASE("ptx semantics: bit operations") {
  CHECK(per_thread(" popc.b32 %r9, %r3;\n", "32", 32)[7] == 3);
  CHECK(per_thread(" clz.b32 %r9, %r3;\n", "32", 32)[1] == 31);
  CHECK(per_thread(" clz.b32 %r9, %r3;\n", "32", 32)[0] == 32);
  CHECK(per_thread(" brev.b32 %r9, %r3;\n", "32", 32)[1] == 2147483648.0);
  CHECK(per_thread(" bfe.u32 %r9, %r3, 1, 2;\n", "32", 32)[6] == 3);
  CHECK(per_thread(" mov.u32 %r4, 255;\n bfi.b32 %r9, %r3, %r4, 4, 4;\n", "32", 32)[5] == 0x5f);
  CHECK(per_thread(" mov.u32 %r4, 0x44332211;\n prmt.b32 %r9, %r4, 0, 0x0123;\n", "32", 32)[0] == double(0x11223344));
  CHECK(per_thread(" mul.hi.u32 %r9, %r3, 0x80000000;\n", "32", 32)[6] == 3);
  CHECK(per_thread(" shf.l.wrap.b32 %r9, %r3, %r3, 28;\n", "32", 32)[1] == double(0x10000000));  // high word of {1:1} << 28
}

TEST_CASE("ptx semantics: votes and shuffles") {
  // lanes with an odd index vote: the ballot is 0xaaaaaaaa in every lane
  CHECK(per_thread(" and.b32 %r4, %r3, 1;\n setp.ne.s32 %p1, %r4, 0;\n vote.sync.ballot.b32 %r9, %p1, -1;\n", "32", 32)[3] ==
        double(0xaaaaaaaau));
  CHECK(per_thread(" setp.lt.u32 %p1, %r3, 40;\n vote.sync.all.pred %p2, %p1, -1;\n selp.u32 %r9, 1, 0, %p2;\n", "32", 32)[0] == 1);
  // shfl.sync.down by 4 with clamp 31: lane 30 keeps its own value
  auto d = per_thread(" shfl.sync.down.b32 %r9, %r3, 4, 31, -1;\n", "32", 32);
  CHECK(d[1] == 5);
  CHECK(d[30] == 30);
  // width 8 (c = (32-8)<<8 | 31): idx 0 reads the segment's first lane
  auto s = per_thread(" shfl.sync.idx.b32 %r9, %r3, 0, 0x181f, -1;\n", "32", 32);
  CHECK(s[13] == 8);
  CHECK(s[31] == 24);
  auto p = per_thread(" shfl.sync.up.b32 %r9|%p1, %r3, 1, 0, -1;\n @!%p1 mov.u32 %r9, 99;\n", "32", 32);
  CHECK(p[0] == 99);
  CHECK(p[5] == 4);
  CHECK(per_thread(" activemask.b32 %r9;\n", "32", 32)[0] == double(0xffffffffu));
}

TEST_CASE("ptx semantics: shared atomics, exch and cas, max") {
  const std::string prologue = " .shared .align 4 .b8 cnt[8];\n";
  // every thread adds 1 to cnt[0] in shared memory; after the barrier each reads 64
  auto v = per_thread(prologue + " mov.u32 %r5, 1;\n atom.shared.add.u32 %r6, [cnt], %r5;\n bar.sync 0;\n ld.shared.u32 %r9, [cnt];\n", "64", 64);
  CHECK(v[63] == 64);
  auto m = per_thread(prologue + " atom.shared.max.s32 %r6, [cnt+4], %r3;\n bar.sync 0;\n ld.shared.u32 %r9, [cnt+4];\n", "64", 64);
  CHECK(m[0] == 63);
  // cas: only the thread finding 0 swaps in its id + 1
  auto c = per_thread(prologue + " add.s32 %r5, %r3, 1;\n atom.shared.cas.b32 %r6, [cnt], 0, %r5;\n bar.sync 0;\n ld.shared.u32 %r9, [cnt];\n", "32", 32);
  CHECK(c[0] >= 1);
  CHECK(c[0] == c[31]);
}

TEST_CASE("ptx semantics: cvt rounding, saturation, f64 and halves") {
  // 2.5 → rni 2, rpi 3, rmi 2, rzi 2; -2.5 → rni -2
  auto r = per_thread(" cvt.rn.f32.u32 %f1, %r3;\n mul.f32 %f1, %f1, 0f3F000000;\n cvt.rni.s32.f32 %r9, %f1;\n", "32", 32);
  CHECK(r[5] == 2);  // 2.5 to nearest even
  CHECK(r[7] == 4);  // 3.5
  CHECK(per_thread(" cvt.rn.f32.u32 %f1, %r3;\n mul.f32 %f1, %f1, 0f3F000000;\n cvt.rpi.s32.f32 %r9, %f1;\n", "32", 32)[5] == 3);
  CHECK(per_thread(" cvt.rn.f32.u32 %f1, %r3;\n cvt.sat.f32.f32 %f2, %f1;\n cvt.rzi.u32.f32 %r9, %f2;\n", "32", 32)[9] == 1);
  CHECK(per_thread(" cvt.rn.f32.u32 %f1, %r3;\n neg.f32 %f1, %f1;\n cvt.rzi.u32.f32 %r9, %f1;\n", "32", 32)[9] == 0);  // saturates
  // f64: (tid / 3) * 3 in double, back to int
  CHECK(per_thread(" cvt.rn.f64.u32 %fd1, %r3;\n div.rn.f64 %fd2, %fd1, 0d4008000000000000;\n mul.f64 %fd2, %fd2, 0d4008000000000000;\n"
                   " cvt.rni.u32.f64 %r9, %fd2;\n", "32", 32)[10] == 10);
  // f16: tid → half → +0.5 → float → *2 → int
  CHECK(per_thread(" cvt.rn.f16.u32 %rs1, %r3;\n mov.b16 %rs2, 0x3800;\n add.f16 %rs3, %rs1, %rs2;\n cvt.f32.f16 %f1, %rs3;\n"
                   " add.f32 %f1, %f1, %f1;\n cvt.rzi.u32.f32 %r9, %f1;\n", "32", 32)[6] == 13);
}

TEST_CASE("ptx semantics: byte loads and stores, the generic space") {
  // byte i of an iota u8 buffer, widened; then a generic store to a shared slot read back
  auto b = per_thread(" ld.param.u64 %rd5, [bytes];\n cvta.to.global.u64 %rd5, %rd5;\n cvt.u64.u32 %rd6, %r3;\n add.s64 %rd5, %rd5, %rd6;\n"
                      " ld.global.u8 %r9, [%rd5];\n", "32", 32, ",\n .param .u64 bytes", {{"1", "u8[300]:iota"}});
  CHECK(b[31] == 31);
  auto g = per_thread(" .shared .align 4 .b8 sh[128];\n mov.u64 %rd5, sh;\n cvta.shared.u64 %rd5, %rd5;\n mul.wide.u32 %rd6, %r3, 4;\n"
                      " add.s64 %rd5, %rd5, %rd6;\n add.s32 %r8, %r3, 7;\n st.u32 [%rd5], %r8;\n ld.u32 %r9, [%rd5];\n", "32", 32);
  CHECK(g[4] == 11);
}
