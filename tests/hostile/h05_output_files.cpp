// Class "output files": a run's outputs are all or nothing, two outputs may not name one file,
// and paths that are not regular files are written through, never replaced.
#include "tests/hostile/hostile.h"

#include <csignal>
#include <cstdio>
#include <unistd.h>

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

TEST_CASE("hostile outputs: a failing second output puts back the file the first replaced") {
  auto dir = case_dir();
  write_input(dir, "keep.json", "OLD\n");
  for (const char* second : {"--trace /dev/full", "--html /dev/full"}) {
    Outcome o = run_case(dir, std::string("--chip h100 -w gemm:M=64,N=64,K=64 -q --json {dir}/keep.json ") + second);
    CHECK(o.exit_code == 5);
    CHECK(hwsim::test::contains(o.err, "/dev/full: write failed"));
    CHECK(hwsim::test::read_text(dir / "keep.json") == "OLD\n");
    CHECK(o.new_files.empty());  // no temporary, no kept copy left beside it
  }
}

TEST_CASE("hostile outputs: a symbolic link to a file is written as that file, whole, the link kept") {
  auto dir = case_dir();
  fs::create_directories(dir / "real");
  fs::create_symlink(dir / "real" / "r.json", dir / "link.json");  // dangling until the run
  accepted(dir, "--chip h100 -w gemm:M=64,N=64,K=64 -q --json {dir}/link.json");
  CHECK(fs::is_symlink(dir / "link.json"));
  CHECK(hwsim::test::contains(hwsim::test::read_text(dir / "real" / "r.json"), "schema_version"));
  // Through a link to /dev/full the write fails and says so (exit 5), never exit 0.
  fs::create_symlink("/dev/full", dir / "full.json");
  Outcome o = run_case(dir, "--chip h100 -w gemm:M=64,N=64,K=64 -q --json {dir}/full.json");
  CHECK(o.exit_code == 5);
  CHECK(fs::is_symlink(dir / "full.json"));
}

TEST_CASE("hostile outputs: what a killed run left beside a path goes with the next run writing it") {
  auto dir = case_dir();
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  REQUIRE(child > 0);
  ::waitpid(child, nullptr, 0);  // a PID no process has now
  const std::string dead = std::to_string(child);
  write_input(dir, "r.json.tmp" + dead, "half a document");
  write_input(dir, "r.json.old" + dead, "the only copy of the previous r.json\n");
  write_input(dir, "r.json.tmp1", "a live process's (init): kept");
  accepted(dir, "--chip h100 -w gemm:M=64,N=64,K=64 -q --json {dir}/r.json");
  CHECK_FALSE(fs::exists(dir / ("r.json.tmp" + dead)));
  CHECK_FALSE(fs::exists(dir / ("r.json.old" + dead)));
  CHECK(fs::exists(dir / "r.json.tmp1"));
  CHECK(hwsim::test::contains(hwsim::test::read_text(dir / "r.json"), "schema_version"));
}

TEST_CASE("hostile outputs: a TERM while the outputs are written leaves no temporary and no partial file") {
  auto dir = case_dir();
  const std::string json = (dir / "big.json").string();
  pid_t child = ::fork();
  if (child == 0) {
    if (::chdir(HWSIM_SOURCE_DIR) != 0) ::_exit(127);
    std::freopen("/dev/null", "w", stderr);
    ::execl(HWSIM_BINARY, HWSIM_BINARY, "--chip", "h100", "-w", "generate:model=llama3_8b,prompt=64,output=160", "-q",
            "--detail", "full", "--json", json.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  REQUIRE(child > 0);
  const fs::path staged = json + ".tmp" + std::to_string(child);
  bool seen = false;
  for (int i = 0; i < 60000 && !seen; ++i) {  // up to 60 s for the writing (~200 MB, ~0.5 s) to begin
    seen = fs::exists(staged);
    if (!seen) ::usleep(1000);
    int status = 0;
    if (!seen && ::waitpid(child, &status, WNOHANG) == child) break;  // finished before we saw it
  }
  REQUIRE_MESSAGE(seen, "the run ended before its output was being written");
  ::kill(child, SIGTERM);
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK_FALSE(fs::exists(staged));
  CHECK_FALSE(fs::exists(json));
}

TEST_CASE("hostile outputs: --max-output refuses a document, a streamed generate's records and a trace past it") {
  refused("--chip h100 -w decode_llama8b -q --json {dir}/d.json --max-output 100kB", 4,
          "d.json: the output passes 1.4 MiB, more than the 97.7 KiB that --max-output allows");
  refused("--chip h100 -w generate:model=llama3_8b,prompt=64,output=48 -q --detail full --json {dir}/g.json --max-output 10MiB",
          4, "the JSON document's records (--detail full) passes");
  refused("--chip h100 -w generate:model=llama3_8b,prompt=64,output=48 -q --trace {dir}/g.trace --max-output 1MiB", 4,
          "the trace's events (--trace) passes");
  refused("--chip h100 -w decode_llama8b -q --max-output 0B", 2, "--max-output: expected a size greater than zero");
}
