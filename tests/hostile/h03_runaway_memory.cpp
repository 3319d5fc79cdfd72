// Class "runaway memory": inputs that once took gigabytes are refused with numbers, before
// anything is allocated.
#include "tests/hostile/hostile.h"

using namespace hwsim::hostile;

namespace {
const std::string kWarp = "--chip h100 --set gpu.core.model=warp ";
const std::string kVectorAdd = " --kernel workloads/kernels/vector_add.hwk --grid 1 --block 32 -q";
}  // namespace

TEST_CASE("hostile memory, --set: a billion SMs is out of range") {
  refused("--chip h100 --set gpu.sm_count=1e9 -w decode_llama8b -q", 3, "gpu.sm_count: 1000000000 is out of range");
}

TEST_CASE("hostile memory, --set: a 1 PiB L2 on the warp model is refused with its estimate") {
  refused(kWarp + "--set memory.l2.size=1PiB" + kVectorAdd, 4, "more than the 8 GiB that --max-memory allows");
}

TEST_CASE("hostile memory, --sample-sms: counting a subset's lines over 48 GB of buffers is refused with its estimate") {
  refused(kWarp + "--kernel workloads/kernels/vector_add.hwk --grid 4000000 --block 1024 --sample-sms 2 -q", 4,
          "the warp model's count of the lines a --sample-sms subset touches");
}

TEST_CASE("hostile memory, --max-memory: a smaller limit refuses what the default would take") {
  refused(kWarp + "--max-memory 1MiB" + kVectorAdd, 4, "more than the 1 MiB that --max-memory allows");
}

TEST_CASE("hostile memory, --set: a billion cache ways is out of range") {
  refused(kWarp + "--set gpu.warp.l2_ways=1000000000" + kVectorAdd, 3, "gpu.warp.l2_ways: 1000000000 is out of range");
}

TEST_CASE("hostile memory, --set: a 3-byte cache line is not a power of two") {
  refused(kWarp + "--set memory.l1.line_bytes=3" + kVectorAdd, 3,
          "memory.l1.line_bytes: 3 is out of range (a power of two between 4 and 4096)");
}

TEST_CASE("hostile memory, workload spec: a [1e12, 1] elementwise tensor does not fit") {
  refused("--chip h100 -w elementwise:T=1000000000000,D=1 -q", 4, "does not fit");
}

// It fits an HBM set to an exabyte, but its CTAs would list 6e10 tensor blocks (a std::bad_alloc once).
TEST_CASE("hostile memory, workload spec: an elementwise kernel over 4 PB of tensor blocks is refused") {
  refused("--chip h100 --set \"memory.hbm.size=1 EB\" -w elementwise:op=gelu,T=100000000,D=10000000 -q", 4,
          "64 KiB tensor blocks in one kernel: more than the tile model simulates");
}

TEST_CASE("hostile memory, workload spec: a billion repeats is out of range") {
  refused("--chip h100 -w elementwise:D=16,repeat=1000000000 -q", 4,
          "repeat: '1000000000' is out of range (a whole number between 1 and 10000)");
}

TEST_CASE("hostile memory, kernel file: /dev/zero is a device, not read forever") {
  refused("--chip h100 --set gpu.core.model=warp --kernel /dev/zero --grid 1 --block 32 -q", 5, "it is a device");
}

TEST_CASE("hostile memory, validate file: /dev/zero is a device, not read forever") {
  refused("validate /dev/zero --chip h100", 5, "it is a device");
}

TEST_CASE("hostile memory, kernel: a dump of 1e11 elements is refused with its size, and no file is left") {
  refused(kWarp + "--kernel workloads/kernels/vector_add.hwk --grid 1 --block 32 --arg a=100000000000 "
                  "--dump a={dir}/a.txt -q",
          4, "--dump a (100000000000 elements) needs about 2.18 TiB of host memory");
}

TEST_CASE("hostile memory, chip TOML: a file over 64 MiB is refused by its size") {
  auto dir = case_dir();
  {
    std::ofstream big(dir / "big.toml", std::ios::binary);
    big << "name = \"x\"\n# " << std::string((64 << 20) + 16, 'x') << "\n";
  }
  refused(dir, "--chip {dir}/big.toml -w decode_llama8b -q", 5, "larger than the 67108864 bytes");
}

// It once spent 36 s and 5.9 GB building the step's graph before --max-memory (or bad_alloc)
// stopped it: the builder knows the op count from one micro-batch, and refuses before building.
TEST_CASE("hostile memory, training: pp=8 with the documented 4096 microbatches is refused up front with its estimate") {
  refused("--system dgx_h100 -w train:model=llama3_8b,batch=4096,seq=2048,pp=8,microbatches=4096 -q", 4,
          "the training step's op graph (microbatches=4096) needs about 14.4 GiB of host memory, more than the 8 GiB");
}
