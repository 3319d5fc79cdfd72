// Class "hangs": inputs that once ran forever now stop within the time limit.
#include "tests/hostile/hostile.h"

using namespace hwsim::hostile;

TEST_CASE("hostile hang, --set: a latency of 1e6 s is out of range, not an endless simulation") {
  refused("--chip h100 --set memory.hbm.latency=1e6s -w decode_llama8b -q", 3,
          "memory.hbm.latency: '1e6s' is out of range (a value between 1 fs and 3600 s)");
}

TEST_CASE("hostile hang, kernel: a grid of 2e10 threads is refused before it runs") {
  refused("--chip h100 --set gpu.core.model=warp --kernel workloads/kernels/vector_add.hwk --grid 20000000 --block 1024 "
          "--arg a=1024 --arg b=1024 --arg c=1024 --arg n=1024 -q",
          4, "more than the 4000000 the warp model simulates");
}

TEST_CASE("hostile hang, kernel: an endless loop stops at --max-cycles in one line") {
  auto dir = case_dir();
  write_input(dir, "loop.hwk", ".kernel loop\n.reg u32 i\nL:\n    add.u32 i, i, 1\n    bra L\n");
  refused(dir, "--chip h100 --set gpu.core.model=warp --kernel {dir}/loop.hwk --grid 1 --block 32 --max-cycles 100000 -q",
          4, "stopped at --max-cycles 100000");
}

TEST_CASE("hostile hang, kernel: 20,000 forward branches are analysed in moments") {
  auto dir = case_dir();
  std::string program = ".kernel fwd\n.reg u32 i\n.reg pred p\n    and.u32 i, %tid, 1\n    setp.eq.u32 p, i, 0\n";
  for (int k = 0; k < 20000; ++k)
    program += "    @p bra L" + std::to_string(k) + "\n    add.u32 i, i, 1\nL" + std::to_string(k) + ":\n";
  write_input(dir, "fwd.hwk", program + "    exit\n");
  accepted(dir, "--chip h100 --set gpu.core.model=warp --kernel {dir}/fwd.hwk --grid 1 --block 32 -q");
}

TEST_CASE("hostile hang, chip TOML: an unknown key of 8 MiB is one short line at once") {
  auto dir = case_dir();
  write_input(dir, "bigkey.toml", "name = \"x\"\n" + std::string(8 << 20, 'x') + " = 1\n");
  refused(dir, "--chip {dir}/bigkey.toml -w decode_llama8b -q", 3, "unknown key");
}

namespace {
// An input named by `args` ({fifo}) is a FIFO no one writes: refused at once, exit 5.
void fifo_refused(const std::string& name, const std::string& args) {
  auto dir = case_dir();
  std::string fifo = make_fifo(dir, name);
  std::string line = args;
  line.replace(line.find("{fifo}"), 6, fifo);
  refused(dir, line, 5, "a FIFO");
}
}  // namespace

TEST_CASE("hostile hang, kernel file: a FIFO is refused, not waited on") {
  fifo_refused("k.hwk", "--chip h100 --set gpu.core.model=warp --kernel {fifo} --grid 1 --block 32 -q");
}

TEST_CASE("hostile hang, chip file: a FIFO is refused") { fifo_refused("chip.toml", "--chip {fifo} -w decode_llama8b -q"); }

TEST_CASE("hostile hang, validate file: a FIFO is refused") { fifo_refused("m.jsonl", "validate {fifo} --chip h100"); }

TEST_CASE("hostile hang, serve trace file: a FIFO is refused") {
  fifo_refused("trace.csv", "--chip h100 -w serve:model=llama3_8b,trace={fifo} -q");
}

TEST_CASE("hostile hang, sweep file: a FIFO is refused") { fifo_refused("s.toml", "sweep {fifo}"); }

TEST_CASE("hostile hang, workload spec: a million layers is out of range") {
  refused("--chip h100 -w decode:model=llama3_8b,layers=1000000,context=512 -q", 4,
          "layers: '1000000' is out of range (a whole number between 1 and 4096)");
}

TEST_CASE("hostile hang, workload spec: a billion serve requests is out of range") {
  refused("--chip h100 -w serve:model=llama3_8b,requests=1000000000,rate=inf,prompt=1,output=1 -q", 4,
          "requests: '1000000000' is out of range");
}
