// Class "errors that are not one line": what once ended in an internal error, a JSON library's
// message or a wrong suggestion is one clear line.
#include "tests/hostile/hostile.h"

using namespace hwsim::hostile;

TEST_CASE("hostile one line, --set: a 1 Hz clock is out of range (once a 38,000-character internal error)") {
  refused("--chip h100 --set gpu.sm.clock=1Hz -w decode_llama8b -q", 3,
          "gpu.sm.clock: '1Hz' is out of range (a value between 1 kHz and 1 THz)");
}

TEST_CASE("hostile one line, --set: a 1 B/s bandwidth is out of range") {
  refused("--chip h100 --set memory.hbm.bandwidth=1B/s -w decode_llama8b -q", 3,
          "memory.hbm.bandwidth: '1B/s' is out of range");
}

TEST_CASE("hostile one line, --set: a bandwidth inside the range that puts the run past the engine's horizon") {
  refused("--chip h100 --set memory.hbm.bandwidth=1kB/s -w decode_llama8b -q", 4, "beyond the engine's range");
}

TEST_CASE("hostile one line, --set: 2^31 SMs is out of range, not a vector error") {
  refused("--chip h100 --set gpu.sm_count=2147483648 -w decode_llama8b -q", 3, "gpu.sm_count: 2147483648 is out of range");
}

TEST_CASE("hostile one line, validate record: M of 1e30 is not a whole number (not a negative one)") {
  auto dir = case_dir();
  write_input(dir, "m.jsonl", "{\"kind\": \"gemm\", \"M\": 1e30, \"N\": 64, \"K\": 64, \"dtype\": \"bf16\", \"seconds\": 1e-5}\n");
  refused(dir, "validate {dir}/m.jsonl --chip h100", 5, "m.jsonl:1: M: 1e+30 is not a whole number between 0 and 2^53");
}

TEST_CASE("hostile one line, validate record: a JSON line that is not an object names its line") {
  auto dir = case_dir();
  write_input(dir, "m.jsonl", "{\"kind\": \"gemm\"\n");
  refused(dir, "validate {dir}/m.jsonl --chip h100", 5, "m.jsonl:1: not a JSON object");
}

TEST_CASE("hostile one line, units: KHz suggests kHz only (no KiHz)") {
  Outcome o = run_case(case_dir(), "--chip h100 --set gpu.sm.clock=1KHz -w decode_llama8b -q");
  CHECK(o.exit_code == 3);
  CHECK(hwsim::test::contains(o.err, "the prefix kilo is a small k (kHz)"));
  CHECK(!hwsim::test::contains(o.err, "KiHz"));
}

TEST_CASE("hostile one line, workload spec: a 100,000-character spec is refused in one short line") {
  refused("--chip h100 -w " + std::string(100000, 'q') + " -q", 4, "100000 characters is too long for a spec");
}

TEST_CASE("hostile one line, system file: an out-of-range system key in a file names file and line") {
  auto dir = case_dir();
  write_input(dir, "sys.toml", "kind = \"system\"\nname = \"s\"\n[system]\nchip = \"h100\"\nnodes = 0\n"
                               "[scale_up]\nlink_bandwidth = \"450 GB/s\"\n");
  refused(dir, "--system {dir}/sys.toml -w decode_llama8b -q", 3, "sys.toml:5: system.nodes");
}

TEST_CASE("hostile one line, sweep file: a NaN value in a sweep's --set is refused before any point runs") {
  auto dir = case_dir();
  write_input(dir, "s.toml", "chip = \"h100\"\nworkload = \"gemm:M=64,N=64,K=64\"\nset = [\"memory.hbm.bandwidth=nanTB/s\"]\n"
                             "[[vary]]\nkey = \"workload.M\"\nvalues = [64, 128]\n");
  refused(dir, "sweep {dir}/s.toml --out {dir}/o.csv", 3, "memory.hbm.bandwidth");
}

TEST_CASE("hostile one line, chip TOML: a name with a line break is refused (it split every error naming the chip)") {
  auto dir = case_dir();
  write_input(dir, "chip.toml", "extends = \"" + std::string(HWSIM_SOURCE_DIR) + "/configs/h100.toml\"\nname = \"a\\nb\"\n");
  refused(dir, "--chip {dir}/chip.toml -w gemm:M=4000000,N=4000000,K=4000000 -q", 3,
          "chip.toml:2: name: a control character (a line break?) in 'a?b'; text is one line");
}

TEST_CASE("hostile one line, workload spec: a generate of 4096 layers and 8000 steps stops at --max-memory") {
  refused("--chip h100 --max-memory 64MiB -w generate:model=llama3_8b,prompt=1,output=8000,layers=4096,max_context=100000 -q",
          4, "the workload's op graphs needs about 64 MiB of host memory, more than the 64 MiB that --max-memory allows");
}

TEST_CASE("hostile one line, validate record: a number past a double (1e57495) names its line (fuzz_measurements finding)") {
  auto dir = case_dir();
  write_input(dir, "m.jsonl", "{\"kind\": \"gemm\", \"seconds\": 1.5e57495}\n");
  refused(dir, "validate {dir}/m.jsonl --chip h100", 5, "m.jsonl:1: not a JSON object");
}

TEST_CASE("hostile one line, Chakra trace: bytes that are not a .et file name the message and byte, and write nothing") {
  auto dir = case_dir();
  write_input(dir, "bad.et", std::string("\x05\x08\x01\x18", 4));
  refused(dir, "--system h200x2 -w chakra:file={dir}/bad.et --json {dir}/out.json", 4,
          "bad.et: message 0 (byte 1 of the file): a field of 5 bytes runs past the end");
  CHECK_FALSE(std::filesystem::exists(dir / "out.json"));
}
