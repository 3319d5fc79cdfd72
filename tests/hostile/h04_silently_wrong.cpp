// Class "silently wrong": inputs that once gave a nonsense number with exit 0 are refused.
#include "tests/hostile/hostile.h"

#include <algorithm>

#include "app/sweep/sweep_output.h"

using namespace hwsim::hostile;

namespace {
// A chip file that extends the shipped H100 and sets one table's key.
std::string chip_with(const fs::path& dir, const std::string& table, const std::string& line) {
  return write_input(dir, "chip.toml", "extends = \"" + std::string(HWSIM_SOURCE_DIR) + "/configs/h100.toml\"\n[" +
                                           table + "]\n" + line + "\n");
}
}  // namespace

TEST_CASE("hostile wrong, --set: 2^32 + 1 SMs is out of range, not a 1-SM result") {
  refused("--chip h100 --set gpu.sm_count=4294967297 -w gemm:M=4096,N=4096,K=4096 -q --json {dir}/r.json", 3,
          "gpu.sm_count: 4294967297 is out of range");
}

TEST_CASE("hostile wrong, chip TOML: NaN is refused as --set refuses it") {
  auto dir = case_dir();
  chip_with(dir, "gpu.tile", "tensor_efficiency = nan");
  refused(dir, "--chip {dir}/chip.toml -w gemm:M=4096,N=4096,K=4096 -q --json {dir}/r.json", 3,
          "gpu.tile.tensor_efficiency: expected a finite number");
}

TEST_CASE("hostile wrong, chip TOML: infinity is refused") {
  auto dir = case_dir();
  chip_with(dir, "gpu.sm.flops_per_clock", "bf16 = inf");
  refused(dir, "--chip {dir}/chip.toml -w gemm:M=4096,N=4096,K=4096 -q", 3, "expected a finite number");
}

TEST_CASE("hostile wrong, chip TOML: 1e308 TB/s overflows to infinity once scaled, and is refused") {
  auto dir = case_dir();
  chip_with(dir, "memory.hbm", "bandwidth = \"1e308 TB/s\"");
  refused(dir, "--chip {dir}/chip.toml -w decode_llama8b -q --json {dir}/r.json", 3, "'1e308 TB/s' is too large");
}

TEST_CASE("hostile wrong, --set: an efficiency of 1e-320 is out of range, not a time of 0") {
  refused("--chip h100 --set gpu.tile.tensor_efficiency=1e-320 -w gemm:M=4096,N=4096,K=4096 -q", 3,
          "is out of range (a fraction between 1e-06 and 1)");
}

TEST_CASE("hostile wrong, system --set: a NaN link bandwidth is refused") {
  refused("--system h200x2 --set scale_up.link_bandwidth=nanGB/s -w decode_llama8b:tp=2 -q", 3,
          "scale_up.link_bandwidth");
}

TEST_CASE("hostile wrong, validate file: a folder is not an empty file") {
  refused("validate /tmp --chip h100", 5, "it is a folder");
}

TEST_CASE("hostile wrong, validate record: a negative measured time is refused, naming the line") {
  auto dir = case_dir();
  write_input(dir, "m.jsonl", "{\"kind\": \"gemm\", \"M\": 64, \"N\": 64, \"K\": 64, \"dtype\": \"bf16\", \"seconds\": -1}\n");
  refused(dir, "validate {dir}/m.jsonl --chip h100 --csv {dir}/rows.csv", 5,
          "m.jsonl:1: seconds: -1 is not a positive time in seconds");
}

TEST_CASE("hostile wrong, workload spec: a serve rate of NaN is refused") {
  refused("--chip h100 -w serve:model=llama3_8b,requests=10,rate=nan,prompt=1,output=1 -q", 4, "rate");
}

TEST_CASE("hostile wrong, workload spec: an infinite memory utilisation is refused") {
  refused("--chip h100 -w serve:model=llama3_8b,requests=10,gpu_memory_utilization=inf -q", 4,
          "gpu_memory_utilization: 'inf' is not a finite number");
}

TEST_CASE("hostile wrong, serve trace file: a negative token count names the file and line") {
  auto dir = case_dir();
  write_input(dir, "t.csv", "arrival_s,prompt_tokens,output_tokens\n0,16,16\n0.5,-3,16\n");
  refused(dir, "--chip h100 -w serve:model=llama3_8b,trace={dir}/t.csv -q", 4, "t.csv:3: prompt_tokens");
}

TEST_CASE("hostile wrong, workload spec: a serve rate of 1e-300 requests/s is out of range (once a 1e300 ms run)") {
  refused("--chip h100 -w serve:model=llama3_8b,requests=3,rate=1e-300,prompt=1,output=1 -q", 4,
          "rate: 1e-300 requests/s is out of range");
}

TEST_CASE("hostile wrong, workload spec: serve arrivals past the engine's horizon are refused with the numbers") {
  refused("--chip h100 -w serve:model=llama3_8b,requests=1000,rate=0.001,prompt=1,output=1 -q", 4,
          "beyond the engine's range of 18446 s");
}

TEST_CASE("hostile wrong, kernel argument: u32 n = 2^32 + 1 is out of its type's range, not 1") {
  refused("--chip h100 --set gpu.core.model=warp --kernel workloads/kernels/vector_add.hwk --grid 1 --block 32 "
          "--arg n=4294967297 -q",
          4, "'4294967297' is out of the range of its type u32");
}

TEST_CASE("hostile wrong, kernel argument: 1e400 and nan are not whole numbers (UBSan: a cast of inf)") {
  refused("--chip h100 --set gpu.core.model=warp --kernel workloads/kernels/vector_add.hwk --grid 1 --block 32 "
          "--arg n=1e400 -q",
          4, "'1e400' is not a whole number");
}

TEST_CASE("hostile wrong, serve dataset file: a CSV without the length columns, and a zero length, name file and line") {
  auto dir = case_dir();
  write_input(dir, "d.csv", "prompt,output\n16,16\n");
  refused(dir, "--chip h100 -w serve:model=llama3_8b,dataset={dir}/d.csv -q", 4,
          "d.csv:1: header: a CSV dataset starts with a header naming prompt_tokens and output_tokens");
  write_input(dir, "z.csv", "prompt_tokens,output_tokens\n16,16\n16,0\n");
  refused(dir, "--chip h100 -w serve:model=llama3_8b,dataset={dir}/z.csv -q", 4, "z.csv:3: output_tokens");
}

TEST_CASE("hostile bound, serve trace file: more than 10^6 requests is refused at its line, not read into gigabytes") {
  auto dir = case_dir();
  std::string rows = "arrival_s,prompt_tokens,output_tokens\n";
  rows.reserve(rows.size() + 6 * 1'000'001);
  for (int i = 0; i <= 1'000'000; ++i) rows += "0,1,1\n";
  write_input(dir, "big.csv", rows);
  refused(dir, "--chip h100 -w serve:model=llama3_8b,trace={dir}/big.csv -q", 4,
          "big.csv:1000002: line: more than 1000000 requests");
}

TEST_CASE("hostile bound, workload spec: 2^32 heads and head_dim are refused by name, not an overflow to 'KV cache 0 B'") {
  refused("--chip h100 -w decode:model=llama3_8b,heads=4294967296,kv_heads=4294967296,head_dim=4294967296,context=16 -q",
          4, "heads 4294967296 is beyond any model hwsim runs (at most 4096");
}

TEST_CASE("hostile bound, LLM model file: 50,000 layers in a file meet the spec's 4,096-layer cap") {
  auto dir = case_dir();
  std::string model = hwsim::test::read_text(std::string(HWSIM_SOURCE_DIR) + "/workloads/llm/models/gpt2.toml");
  auto at = model.find("\nlayers = ");
  REQUIRE(at != std::string::npos);
  model.replace(at, model.find('\n', at + 1) - at, "\nlayers = 50000");
  write_input(dir, "deep.toml", model);
  refused(dir, "--chip h100 -w decode:model={dir}/deep.toml,context=16 -q", 4,
          "layers 50000 is beyond any model hwsim runs (at most 4096");
}

TEST_CASE("hostile wrong, validate record: a 5e-324 s measured time is refused, not printed as an inf % error") {
  auto dir = case_dir();
  write_input(dir, "m.jsonl", "{\"kind\": \"gemm\", \"M\": 64, \"N\": 64, \"K\": 64, \"dtype\": \"bf16\", \"seconds\": 5e-324}\n");
  refused(dir, "validate {dir}/m.jsonl --chip h100 --csv {dir}/rows.csv", 5,
          "m.jsonl:1: seconds: 4.94066e-324 s is below any measurable time (at least 1e-12 s)");
}

TEST_CASE("hostile leftovers: --max-memory takes 1 EiB as documented; an unreadable model file is an I/O error (5)") {
  hwsim::test::CliRun r = hwsim::test::run_hwsim("--chip h100 -w gemm:M=64,N=64,K=64 -q --max-memory 1EiB");
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  refused("--chip h100 -w decode:model=/nonexistent/m.toml,context=16 -q", 5, "cannot read model file");
}

TEST_CASE("hostile leftovers: an extends loop of symbolic links is one config error, not an internal one") {
  auto dir = case_dir();
  fs::create_symlink(dir / "b.toml", dir / "a.toml");
  fs::create_symlink(dir / "a.toml", dir / "b.toml");
  write_input(dir, "c.toml", "extends = \"a.toml\"\n");
  refused(dir, "--chip {dir}/c.toml -w gemm:M=64,N=64,K=64 -q", 3, "cannot read chip file: Too many levels of symbolic links");
}

TEST_CASE("hostile leftovers: a workload that does not fit says one line, not its warning first") {
  refused("--chip h100 -w decode:model=llama3_8b,context=1000000000000 -q", 4, "does not fit H100");
  refused("--chip h100 -w prefill:model=llama3_8b,prompt=10000000 -q", 4, "does not fit H100");
}

TEST_CASE("hostile bound, sweep: 80 lists of a million values, or 12 ranges of a million in one file list, are one line") {
  std::string args = "sweep --chip h100 -w gemm:M=64,N=64,K=64 --zip";
  for (int k = 0; k < 80; ++k) args += " --vary k" + std::to_string(k) + "=1..1000000";
  refused(args, 2, "more than 1000000 values in all the sweep's lists");
  auto dir = case_dir();
  std::string file = "chip = \"h100\"\nworkload = \"gemm:M=64,N=64,K=64\"\nzip = true\n[[vary]]\nkey = \"workload.M\"\nvalues = [";
  for (int r = 0; r < 12; ++r) file += std::string(r ? ", " : "") + "\"1..1000000\"";
  file += "]\n";
  write_input(dir, "s.toml", file);
  refused(dir, "sweep {dir}/s.toml", 2, "more than 1000000 values in all the sweep's lists");
}

TEST_CASE("hostile wrong, validate record: a model text cannot smuggle spec fields ('gpt2,layers=4096')") {
  auto dir = case_dir();
  write_input(dir, "m.jsonl", "{\"kind\": \"decode_step\", \"model\": \"gpt2,layers=4096\", \"batch\": 1, \"context\": 16, "
                              "\"layers\": 2, \"seconds\": 1e-3}\n");
  refused(dir, "validate {dir}/m.jsonl --chip h100 --csv {dir}/rows.csv", 5,
          "m.jsonl:1: model: 'gpt2,layers=4096' is not one name");
}

TEST_CASE("hostile resume: --out a link to /dev/zero or a FIFO is refused, an edited row is not kept") {
  auto dir = case_dir();
  fs::create_symlink("/dev/zero", dir / "zero.csv");
  const std::string sweep = "sweep --chip h100 -w gemm:M=64,N=64,K=64 --vary workload.M=64,128 --resume --out ";
  Outcome o = run_case(dir, sweep + "{dir}/zero.csv");
  CHECK(o.exit_code == 5);
  CHECK(hwsim::test::contains(o.err, "not a regular file"));
  CHECK(hwsim::test::lines_of(o.err).size() == 1);
  make_fifo(dir, "pipe.csv");
  o = run_case(dir, sweep + "{dir}/pipe.csv");
  CHECK(o.exit_code == 5);
  CHECK(hwsim::test::contains(o.err, "not a regular file"));
  // A finished sweep, one row edited to seconds = -5: refused, naming the line.
  auto out = dir / "s.csv";
  accepted(dir, sweep.substr(0, sweep.find(" --resume")) + " --out {dir}/s.csv");
  auto lines = hwsim::test::lines_of(hwsim::test::read_text(out));
  REQUIRE(lines.size() == 3);
  auto cells = hwsim::split_csv_line(lines[2]);
  auto header = hwsim::split_csv_line(lines[0]);
  auto seconds = std::size_t(std::find(header.begin(), header.end(), "seconds") - header.begin());
  REQUIRE(seconds < cells.size());
  cells[seconds] = "-5";
  std::string edited;
  for (std::size_t i = 0; i < cells.size(); ++i) edited += (i ? "," : "") + cells[i];
  write_input(dir, "s.csv", lines[0] + "\n" + lines[1] + "\n" + edited + "\n");
  o = run_case(dir, sweep + "{dir}/s.csv");
  CHECK(o.exit_code == 2);
  CHECK(hwsim::test::contains(o.err, "s.csv:3: --resume: seconds: -5 is not a positive number"));
}

TEST_CASE("hostile bound, collective: all_to_all among 10^4 and 10^5 ranks is refused before its pairs are made") {
  refused("--system h100_cluster --set system.nodes=1250 -w collective:op=all_to_all,bytes=1MiB,ranks=10000 -q", 4,
          "all_to_all of 10000 ranks with algo=direct: too many transfers to simulate");
  refused("--system h100_cluster --set system.nodes=12500 -w collective:op=all_to_all,bytes=1MiB,ranks=100000 -q", 4,
          "all_to_all of 100000 ranks with algo=direct: too many transfers to simulate");
}

TEST_CASE("hostile bound, sweep --jobs: the children running at once share --max-memory, not multiply it") {
  auto dir = case_dir();
  // decode_llama8b's op graphs take about 2 MiB: within 4 MiB alone, not within half of it.
  std::string sweep = "sweep --chip h100 -w decode_llama8b --vary workload.batch=1,2 --max-memory 4MiB --out {dir}/";
  accepted(dir, sweep + "one.csv --jobs 1");
  Outcome o = run_case(dir, sweep + "two.jsonl --jobs 2");
  CHECK(o.exit_code == 0);  // a failed point is a row, not the sweep's failure
  std::string rows = hwsim::test::read_text(dir / "two.jsonl");
  CHECK(hwsim::test::contains(rows, "more than the 2 MiB that --max-memory allows each of 2 processes running at once"));
  CHECK_FALSE(hwsim::test::contains(rows, "\"status\":\"ok\""));
}

TEST_CASE("hostile bound, sweep --jobs: more jobs than cores run one per core, and say so") {
  auto dir = case_dir();
  std::string sweep = "sweep --chip h100 -w gemm:M=64,N=64,K=64 --vary workload.M=64,128,256 --out {dir}/";
  accepted(dir, sweep + "one.csv --jobs 1");
  Outcome o = run_case(dir, sweep + "many.csv --jobs 1000");
  CHECK(o.exit_code == 0);
  CHECK(hwsim::test::contains(o.err, "--jobs 1000 is more than the"));
  CHECK(hwsim::test::read_text(dir / "many.csv") == hwsim::test::read_text(dir / "one.csv"));
}

TEST_CASE("hostile bound, up front: a serve run of hours and a sweep of 10^7 points are refused with their numbers") {
  refused("--chip h100 -w serve:model=llama3_8b,requests=1000000,output=8000 -q", 4,
          "more than the 5e+07 tokens a serve run simulates");
  refused("sweep --chip h100 -w gemm:M=64,N=64,K=64 --vary workload.M=1..1000 --vary workload.N=1..10000", 2,
          "10000000 points is more than 1000000");
}

TEST_CASE("hostile bound, kernel argument: a 10^12-element buffer costs its page directories, not 8 GB of page table") {
  accepted(case_dir(), "--chip h100 --set gpu.core.model=warp --kernel workloads/kernels/stream_copy.hwk --grid 1 --block 32 "
                       "--arg a=1000000000000 --arg n=64 -q");  // under the suite's 4 GiB address-space limit
}

TEST_CASE("hostile wrong, serve prefix caching and priorities: each mistake is one line naming the field") {
  const std::string base = "--chip h100 -w serve:model=llama3_8b,requests=4,rate=inf,prompt=128,output=4";
  refused(base + ",shared_prefix=200 -q", 4, "shared_prefix: 200 tokens is longer than request 0's prompt of 128");
  refused(base + ",shared_prefix=-16 -q", 4, "shared_prefix: '-16' is negative");
  refused(base + ",prefix_caching=maybe -q", 4, "prefix_caching");
  refused(base + ",scheduling=lifo -q", 4, "scheduling: 'lifo' is not fcfs or priority");
  refused(base + ",priority=uniform:2..1 -q", 4, "priority: range 2..1 is empty");
  refused(base + ",priority=-1 -q", 4, "priority: '-1' is malformed");
}

TEST_CASE("hostile wrong, serve trace file: bad prefix and priority columns name the file, line and column") {
  auto dir = case_dir();
  write_input(dir, "p.csv", "arrival_s,prompt_tokens,output_tokens,prefix_group,prefix_tokens\n0,128,4,0,64\n0,128,4,0,300\n");
  refused(dir, "--chip h100 -w serve:model=llama3_8b,trace={dir}/p.csv -q", 4,
          "p.csv:3: prefix_tokens: 300 shared tokens is more than the prompt's 128");
  write_input(dir, "g.csv", "arrival_s,prompt_tokens,output_tokens,prefix_group,prefix_tokens\n0,128,4,0,\n");
  refused(dir, "--chip h100 -w serve:model=llama3_8b,trace={dir}/g.csv -q", 4,
          "g.csv:2: prefix_tokens: missing: prefix_group and prefix_tokens go together");
  write_input(dir, "n.csv", "arrival_s,prompt_tokens,output_tokens,prefix_group,prefix_tokens\n0,128,4,-2,16\n");
  refused(dir, "--chip h100 -w serve:model=llama3_8b,trace={dir}/n.csv -q", 4, "n.csv:2: prefix_group: '-2'");
  write_input(dir, "q.jsonl", "{\"arrival_s\": 0, \"prompt_tokens\": 16, \"output_tokens\": 4, \"priority\": 1.5}\n");
  refused(dir, "--chip h100 -w serve:model=llama3_8b,trace={dir}/q.jsonl -q", 4, "q.jsonl:1: priority: '1.5' is not a priority");
  write_input(dir, "r.csv", "arrival_s,prompt_tokens,output_tokens,priority\n0,16,4,1\n");
  refused(dir, "--chip h100 -w serve:model=llama3_8b,trace={dir}/r.csv,priority=uniform:0..2 -q", 4,
          "priority: the request file gives each request's priority");
}
