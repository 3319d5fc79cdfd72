// Class "output files": a run's outputs are all or nothing, two outputs may not name one file,
// and paths that are not regular files are written through, never replaced.
#include "tests/hostile/hostile.h"

using namespace hwsim::hostile;

TEST_CASE("hostile outputs: --json X --trace X is an error before anything runs") {
  refused("--chip h100 -w decode_llama8b -q --json {dir}/x --trace {dir}/x", 2, "two outputs name one destination");
}

TEST_CASE("hostile outputs: one file by two names (./x and x) is an error too") {
  refused("--chip h100 -w decode_llama8b -q --json {dir}/x --html {dir}/./x", 2, "two outputs name one destination");
}

TEST_CASE("hostile outputs: a trace into a missing folder leaves no JSON behind") {
  refused("--chip h100 -w decode_llama8b -q --json {dir}/r.json --trace /nonexistent/t.json", 5, "/nonexistent/t.json");
}

TEST_CASE("hostile outputs: a failed run (bad workload) leaves no output file") {
  refused("--chip h100 -w gemm:M=0,N=1,K=1 --json {dir}/r.json --html {dir}/r.html --svg {dir}/r.svg", 4, "M");
}

TEST_CASE("hostile outputs: a kernel stopped at --max-cycles leaves none of its outputs") {
  refused("--chip h100 --set gpu.core.model=warp --kernel workloads/kernels/vector_add.hwk --grid 64 --block 256 "
          "--max-cycles 10 --json {dir}/k.json --trace {dir}/k.trace --dump c={dir}/c.txt",
          4, "stopped at --max-cycles 10");
}

TEST_CASE("hostile outputs: validate --csv of a file with a bad record leaves no CSV") {
  auto dir = case_dir();
  write_input(dir, "m.jsonl", "{\"kind\": \"gemm\", \"M\": 64, \"N\": 64, \"K\": 64, \"dtype\": 16, \"seconds\": 1e-5}\n");
  refused(dir, "validate {dir}/m.jsonl --chip h100 --csv {dir}/rows.csv", 5, "m.jsonl:1: dtype: 16 is not a string");
}

TEST_CASE("hostile outputs: sweep --out X --svg X is an error") {
  refused("sweep --chip h100 -w gemm:M=64,N=64,K=64 --vary workload.M=64,128 --out {dir}/s.csv --svg {dir}/s.csv", 2,
          "two outputs name one destination");
}

TEST_CASE("hostile outputs: a folder as --json is refused before the run") {
  refused("--chip h100 -w decode_llama8b -q --json {dir}", 5, "it is a folder");
}

TEST_CASE("hostile outputs: /dev/null is written through and stays a device") {
  auto dir = case_dir();
  accepted(dir, "--chip h100 -w gemm:M=64,N=64,K=64 -q --json /dev/null");
  struct stat st {};
  REQUIRE(::stat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
}

TEST_CASE("hostile outputs: a FIFO is written through, not replaced by a regular file") {
  auto dir = case_dir();
  std::string fifo = make_fifo(dir, "pipe");
  std::string copy = (dir.parent_path() / (dir.filename().string() + ".copy")).string();
  std::string reader = "timeout 60 cat '" + fifo + "' > '" + copy + "' &";
  REQUIRE(std::system(reader.c_str()) == 0);
  Outcome o = run_case(dir, "--chip h100 -w gemm:M=64,N=64,K=64 -q --json {dir}/pipe");
  CHECK(o.exit_code == 0);
  struct stat st {};
  REQUIRE(::stat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  for (int i = 0; i < 100 && hwsim::test::read_text(copy).find("schema_version") == std::string::npos; ++i) ::usleep(50000);
  CHECK(hwsim::test::contains(hwsim::test::read_text(copy), "schema_version"));
}
