// The warp model's Ampere/Hopper PTX: mma.sync in each supported shape (fragments loaded with
// ldmatrix from shared memory that cp.async filled, the product checked against a reference
// matmul), ldmatrix's layouts, cp.async groups and what wait_group waits for, calls to .func and
// .local frames (nvcc's own PTX), wgmma through Triton's own sm_90a PTX, and the one-line refusal
// of what is not supported.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "models/gpu/warp/ptx_reader.h"
#include "sim/error.h"
#include "tests/unit/u4_warp_support.h"

using namespace hwsim;
using namespace hwsim::warp;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  REQUIRE(f.good());
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::unique_ptr<KernelRun> launch(const Program& p, std::int64_t grid, std::int64_t block,
                                  std::map<std::string, std::string> args, std::uint64_t dynamic_shared = 0) {
  LaunchOptions o;
  o.args.grid = grid;
  o.args.block = block;
  o.args.dynamic_shared = dynamic_shared;
  o.args.args = std::move(args);
  return simulate_kernel(test::h100(), p, o);
}

// One warp: cp.async copies A (16 rows of AROW bytes) and B transposed (8 rows of BROW bytes) into
// shared memory, ldmatrix loads the fragments (A: .XA, rows lane%16 at 16-byte column lane/16; B:
// .XB, rows lane%8 at column (lane/8)%2), one mma.sync, D stored as out[lane*4 + i].
std::string mma_kernel(const std::string& shape, const std::string& types, int a_regs, int b_regs) {
  std::string a, b;
  for (int i = 0; i < a_regs; ++i) a += (i ? ", %a" : "%a") + std::to_string(i);
  for (int i = 0; i < b_regs; ++i) b += (i ? ", %b" : "%b") + std::to_string(i);
  const int arow = a_regs == 4 ? 32 : 16, brow = b_regs == 2 ? 32 : 16;
  return std::string(".version 8.0\n.target sm_90\n.address_size 64\n"
         ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pout)\n{\n"
         " .reg .b32 %r<40>;\n .reg .b32 %a<4>;\n .reg .b32 %b<2>;\n .reg .b32 %d<4>;\n .reg .b64 %rd<10>;\n .reg .pred %p<2>;\n"
         " .shared .align 16 .b8 sa[512];\n .shared .align 16 .b8 sb[512];\n"
         " ld.param.u64 %rd1, [pa];\n ld.param.u64 %rd2, [pb];\n ld.param.u64 %rd3, [pout];\n"
         " mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 4;\n cvt.u64.u32 %rd4, %r2;\n"
         " add.s64 %rd5, %rd1, %rd4;\n add.s64 %rd6, %rd2, %rd4;\n"
         " mov.u32 %r3, sa;\n add.u32 %r4, %r3, %r2;\n mov.u32 %r5, sb;\n add.u32 %r6, %r5, %r2;\n") +
         " setp.lt.u32 %p1, %r2, " + std::to_string(16 * arow) + ";\n" +
         " @%p1 cp.async.cg.shared.global [%r4], [%rd5], 16;\n" +
         " setp.lt.u32 %p1, %r2, " + std::to_string(8 * brow) + ";\n" +
         " @%p1 cp.async.cg.shared.global [%r6], [%rd6], 16;\n"
         " cp.async.commit_group;\n cp.async.wait_group 0;\n bar.sync 0;\n"
         " and.b32 %r7, %r1, 15;\n mul.lo.u32 %r8, %r7, " + std::to_string(arow) + ";\n shr.u32 %r9, %r1, 4;\n"
         " shl.b32 %r10, %r9, 4;\n add.u32 %r11, %r8, %r10;\n add.u32 %r12, %r3, %r11;\n"
         " ldmatrix.sync.aligned.m8n8.x" + std::to_string(a_regs) + ".shared.b16 {" + a + "}, [%r12];\n"
         " and.b32 %r13, %r1, 7;\n mul.lo.u32 %r14, %r13, " + std::to_string(brow) + ";\n shr.u32 %r15, %r1, 3;\n"
         " and.b32 %r15, %r15, 1;\n shl.b32 %r16, %r15, 4;\n add.u32 %r17, %r14, %r16;\n add.u32 %r18, %r5, %r17;\n"
         " ldmatrix.sync.aligned.m8n8.x" + std::to_string(b_regs) + ".shared.b16 {" + b + "}, [%r18];\n"
         " mov.b32 %d0, 0;\n mov.b32 %d1, 0;\n mov.b32 %d2, 0;\n mov.b32 %d3, 0;\n"
         " mma.sync.aligned." + shape + ".row.col." + types + " {%d0, %d1, %d2, %d3}, {" + a + "}, {" + b +
         "}, {%d0, %d1, %d2, %d3};\n"
         " mul.wide.u32 %rd7, %r1, 16;\n add.s64 %rd8, %rd3, %rd7;\n"
         " st.global.v4.b32 [%rd8], {%d0, %d1, %d2, %d3};\n ret;\n}\n";
}

// Runs mma_kernel on random A (16 x k) and B^T (8 x k) of `elem` and checks D = A B against a
// reference product (`tf32`: operands read with 10 mantissa bits).
void check_mma(const std::string& shape, const std::string& types, int k, const std::string& elem, int a_regs,
               int b_regs, bool tf32 = false) {
  Program p = parse_ptx(mma_kernel(shape, types, a_regs, b_regs), "mma.ptx", "");
  const std::string acc = elem == "s8" ? "s32" : "f32";
  auto r = launch(p, 1, 32, {{"0", elem + "[" + std::to_string(16 * k) + "]:random:1"},
                             {"1", elem + "[" + std::to_string(8 * k) + "]:random:2"},
                             {"2", acc + "[128]:zeros"}});
  auto A = test::values(*r, "0"), BT = test::values(*r, "1"), D = test::values(*r, "2");
  auto in = [&](double v) {
    if (!tf32) return v;
    float f = float(v);
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    u &= 0xffffe000u;
    std::memcpy(&f, &u, 4);
    return double(f);
  };
  double worst = 0;
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) {
      const int row = lane / 4 + 8 * (i / 2), col = 2 * (lane % 4) + i % 2;
      double ref = 0;
      for (int kk = 0; kk < k; ++kk) ref += in(A[std::size_t(row * k + kk)]) * in(BT[std::size_t(col * k + kk)]);
      worst = std::max(worst, std::fabs(D[std::size_t(lane * 4 + i)] - ref));
    }
  CHECK_MESSAGE(worst < (elem == "s8" ? 0.5 : 1e-4), shape << " " << types << ": max |D - ref| = " << worst);
}

}  // namespace

TEST_CASE("ptx mma.sync: each shape's fragments give the reference product") {
  check_mma("m16n8k16", "f32.bf16.bf16.f32", 16, "bf16", 4, 2);
  check_mma("m16n8k16", "f32.f16.f16.f32", 16, "f16", 4, 2);
  check_mma("m16n8k8", "f32.f16.f16.f32", 8, "f16", 2, 1);
  check_mma("m16n8k8", "f32.tf32.tf32.f32", 8, "f32", 4, 2, true);
  check_mma("m16n8k32", "s32.s8.s8.s32", 32, "s8", 4, 2);
}

TEST_CASE("ptx ldmatrix: x1/x2/x4 and .trans layouts") {
  // shared holds iota u16 (row r of matrix q: 8q*8 + 8r + c); each lane stores its registers
  const std::string src =
      ".visible .entry k(.param .u64 pout)\n{\n .reg .b32 %r<20>;\n .reg .b64 %rd<6>;\n"
      " .shared .align 16 .b8 s[512];\n"
      " ld.param.u64 %rd1, [pout];\n mov.u32 %r1, %tid.x;\n"
      " shl.b32 %r2, %r1, 3;\n mov.u32 %r3, s;\n"  // lane l fills u16 8l..8l+7 with 8l..8l+7
      " shl.b32 %r4, %r1, 4;\n add.u32 %r5, %r3, %r4;\n"
      " add.u32 %r6, %r2, 1;\n shl.b32 %r7, %r6, 16;\n or.b32 %r8, %r7, %r2;\n"
      " add.u32 %r9, %r8, 0x00020002;\n add.u32 %r10, %r8, 0x00040004;\n add.u32 %r11, %r8, 0x00060006;\n"
      " st.shared.v4.b32 [%r5], {%r8, %r9, %r10, %r11};\n bar.sync 0;\n"
      " ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r12, %r13, %r14, %r15}, [%r5];\n"
      " ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r16}, [%r5];\n"
      " mul.wide.u32 %rd2, %r1, 32;\n add.s64 %rd3, %rd1, %rd2;\n"
      " st.global.v4.b32 [%rd3], {%r12, %r13, %r14, %r15};\n st.global.b32 [%rd3+16], %r16;\n ret;\n}\n";
  auto r = launch(parse_ptx(src, "ld.ptx", ""), 1, 32, {{"0", "u32[256]:zeros"}});
  auto o = test::values(*r, "0");
  for (int l = 0; l < 32; ++l) {
    for (int q = 0; q < 4; ++q) {  // .trans: column l/4, rows 2(l%4) and 2(l%4)+1 of matrix q
      const int base = 64 * q + l / 4;
      const double want = double(base + 8 * (2 * (l % 4))) + 65536.0 * double(base + 8 * (2 * (l % 4) + 1));
      CHECK(o[std::size_t(l * 8 + q)] == want);
    }
    const int e = 8 * (l / 4) + 2 * (l % 4);  // x1: row l/4, elements 2(l%4) and 2(l%4)+1
    CHECK(o[std::size_t(l * 8 + 4)] == double(e) + 65536.0 * double(e + 1));
  }
}

TEST_CASE("ptx cp.async: zero fill past SRC_SIZE, and wait_group waits only for the groups it names") {
  auto kernel = [](int wait) {
    return ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n .reg .b32 %r<12>;\n .reg .b64 %rd<6>;\n"
           " .shared .align 16 .b8 s[64];\n ld.param.u64 %rd1, [pin];\n ld.param.u64 %rd2, [pout];\n"
           " mov.u32 %r1, s;\n mov.u32 %r2, 12;\n"
           " cp.async.ca.shared.global [%r1], [%rd1], 16, %r2;\n cp.async.commit_group;\n"
           " cp.async.cg.shared.global [%r1+16], [%rd1+4096], 16;\n cp.async.commit_group;\n"
           " cp.async.wait_group " + std::to_string(wait) + ";\n bar.sync 0;\n"
           " ld.shared.v4.b32 {%r4, %r5, %r6, %r7}, [%r1];\n st.global.v4.b32 [%rd2], {%r4, %r5, %r6, %r7};\n ret;\n}\n";
  };
  auto r0 = launch(parse_ptx(kernel(0), "cp.ptx", ""), 1, 1, {{"0", "u32[2048]:iota"}, {"1", "u32[4]:zeros"}});
  auto o = test::values(*r0, "1");
  CHECK(o[0] == 0);
  CHECK(o[1] == 1);
  CHECK(o[2] == 2);
  CHECK(o[3] == 0);  // bytes 12..15 past SRC_SIZE 12: zero
  // wait_group 0 waits for both groups (DRAM reads); wait_group 2 for none: the first is
  // the one whose wait stalls on the copies (long scoreboard at the wait)
  auto r2 = launch(parse_ptx(kernel(2), "cp.ptx", ""), 1, 1, {{"0", "u32[2048]:iota"}, {"1", "u32[4]:zeros"}});
  CHECK(r0->stats.cycles > r2->stats.cycles + 300);
  std::uint64_t waited = 0;
  for (std::size_t pc = 0; pc < r0->program.code.size(); ++pc)
    if (r0->program.code[pc].op == warp::Op::bar || r0->program.code[pc].op == warp::Op::ld)
      waited += r0->stats.pcs[pc].stall[std::size_t(Stall::long_scoreboard)];
  CHECK(waited > 300);
}

TEST_CASE("ptx calls and .local: nvcc's call_local_demo runs unchanged") {
  const std::string src = read_text("workloads/kernels/lessons/ptx/mma_matmul_sm90.ptx");
  Program p = parse_ptx(src, "mma_matmul_sm90.ptx", "call_local_demo");
  CHECK(p.local_bytes == 64);
  const int n = 64;
  auto r = launch(p, 1, n, {{"0", "f32[64]:random:3"}, {"1", "f32[64]:zeros"}, {"2", "64"}});
  auto in = test::values(*r, "0"), out = test::values(*r, "1");
  for (int t = 0; t < n; ++t) {
    float w[16];
    for (int i = 0; i < 16; ++i) w[i] = float(in[std::size_t((t + i) % n)]);
    w[t % 16] += 1.0f;
    float s = 0.f;
    for (int i = 0; i < 16; ++i) s = std::fma(s, 0.5f, w[i]);
    CHECK(out[std::size_t(t)] == doctest::Approx(s).epsilon(1e-6));
  }
}

TEST_CASE("ptx mma_matmul (nvcc: cp.async, ldmatrix .x4/.trans, mma bf16) computes A B") {
  const std::string src = read_text("workloads/kernels/lessons/ptx/mma_matmul_sm80.ptx");
  Program p = parse_ptx(src, "mma_matmul_sm80.ptx", "mma_matmul");
  const int n = 128;
  auto r = launch(p, 1, 256, {{"0", "bf16[16384]:random:1"}, {"1", "bf16[16384]:random:2"}, {"2", "f32[16384]:zeros"},
                              {"3", "128"}, {"4", "128"}, {"5", "128"}});
  auto A = test::values(*r, "0"), B = test::values(*r, "1"), C = test::values(*r, "2");
  double worst = 0;
  for (int i = 0; i < n; i += 7)
    for (int j = 0; j < n; ++j) {
      double ref = 0;
      for (int k = 0; k < n; ++k) ref += A[std::size_t(i * n + k)] * B[std::size_t(k * n + j)];
      worst = std::max(worst, std::fabs(C[std::size_t(i * n + j)] - ref));
    }
  CHECK(worst < 1e-3);
}

TEST_CASE("ptx wgmma (Triton sm_90a matmul: descriptors, 128-byte swizzle) computes A B") {
  const std::string src = read_text("workloads/kernels/lessons/ptx/triton_matmul_bf16.ptx");
  Program p = parse_ptx(src, "triton_matmul_bf16.ptx", "");
  const int M = 128, N = 256, K = 128;
  auto r = launch(p, 1, 256,
                  {{"0", "bf16[16384]:random:1"}, {"1", "bf16[32768]:random:2"}, {"2", "bf16[32768]:zeros"},
                   {"3", "128"}, {"4", "256"}, {"5", "128"}, {"6", "128"}, {"7", "256"}, {"8", "256"},
                   {"9", "u8[16]:zeros"}, {"10", "u8[16]:zeros"}},
                  147456);
  auto A = test::values(*r, "0"), B = test::values(*r, "1"), C = test::values(*r, "2");
  double worst = 0, scale = 0;
  for (int i = 0; i < M; i += 5)
    for (int j = 0; j < N; ++j) {
      double ref = 0;
      for (int k = 0; k < K; ++k) ref += A[std::size_t(i * K + k)] * B[std::size_t(k * N + j)];
      worst = std::max(worst, std::fabs(C[std::size_t(i * N + j)] - ref));
      scale = std::max(scale, std::fabs(ref));
    }
  CHECK(worst / scale < 1e-2);  // bf16 output
}

TEST_CASE("ptx: what is not supported is one line naming it, its PTX line and what is") {
  std::string body = ".visible .entry k(\n .param .u64 a\n)\n{\n .reg .b32 %r<2>;\n";
  auto error_of = [](const std::string& src) -> std::string {
    try {
      parse_ptx(src, "k.ptx", "");
    } catch (const UserError& e) {
      return e.what();
    }
    return "";
  };
  const std::string e = error_of(body + " mbarrier.try_wait.parity.shared::cta.b64 %r1, [%r0], %r1;\n}\n");
  CHECK(e.find("k.ptx:6:2: 'mbarrier.try_wait.parity.shared::cta.b64' is not supported by the warp model yet (supported: ") == 0);
  CHECK(e.find("cp.async") != std::string::npos);
  CHECK(e.find('\n') == std::string::npos);
  CHECK(error_of(body + " cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r0], [%r1, {%r0, %r0}], [%r0];\n}\n")
            .find("k.ptx:6:2: 'cp.async.bulk.tensor.2d") == 0);
  CHECK(error_of(body + " fence.proxy.async.shared::cta;\n wgmma.fence.sync.aligned;\n}\n").empty());  // ordering only
  CHECK(error_of(body + " mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%r0,%r0,%r0,%r0}, {%r0,%r0,%r0,%r0}, {%r0,%r0}, {%r0,%r0,%r0,%r0};\n}\n")
            .find("k.ptx:6:2: 'mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32' is not supported (supported: mma.sync") == 0);
}

TEST_CASE("gpu.warp.l2_merge: blocks reading the same tiles at once take the L2's bandwidth once") {
  // 132 blocks of 1024 threads each read the same 64 KB eight times with ld.global.cg (as
  // cp.async.cg tiles are read), four 16-byte loads in flight per thread: L2-bound when every
  // request takes its bandwidth, much less so when requests in flight merge
  const std::string src =
      ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<6>;\n"
      " .reg .f32 %f<20>;\n .reg .pred %p<2>;\n ld.param.u64 %rd1, [pin];\n ld.param.u64 %rd2, [pout];\n"
      " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd3, %r1, 16;\n add.s64 %rd4, %rd1, %rd3;\n mov.u32 %r2, 0;\n"
      "LOOP:\n ld.global.cg.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];\n ld.global.cg.v4.f32 {%f5, %f6, %f7, %f8}, [%rd4+16384];\n"
      " ld.global.cg.v4.f32 {%f9, %f10, %f11, %f12}, [%rd4+32768];\n ld.global.cg.v4.f32 {%f13, %f14, %f15, %f16}, [%rd4+49152];\n"
      " add.f32 %f17, %f17, %f1;\n add.f32 %f17, %f17, %f5;\n add.f32 %f17, %f17, %f9;\n add.f32 %f17, %f17, %f13;\n"
      " add.u32 %r2, %r2, 1;\n setp.lt.u32 %p1, %r2, 8;\n @%p1 bra LOOP;\n"
      " st.global.f32 [%rd2], %f17;\n ret;\n}\n";
  Program p = parse_ptx(src, "merge.ptx", "");
  LaunchOptions o;
  o.args.grid = 132;
  o.args.block = 1024;
  o.args.args = {{"0", "f32[16384]:random:1"}, {"1", "f32[1]:zeros"}};
  WarpParams merged = test::h100();
  merged.l2_merge = true;
  auto off = simulate_kernel(test::h100(), p, o);
  auto on = simulate_kernel(merged, p, o);
  CHECK(!test::h100().l2_merge);  // off unless a chip or --set turns it on
  CHECK(on->stats.cycles < off->stats.cycles * 0.8);
}
