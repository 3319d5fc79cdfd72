// --json - writes the document to stdout (no text report mixed in); --json /dev/stdout into a
// pipe writes through and leaves /dev/stdout alone; --summary drops the per-kernel records.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

static const char* kGemm = "--chip h100 --workload gemm:M=512,N=512,K=512,dtype=bf16";

TEST_CASE("cli: --json - puts the JSON document on stdout and nothing else") {
  CliRun r = run_hwsim(std::string(kGemm) + " --json -");
  CHECK(r.exit_code == 0);
  auto doc = nlohmann::json::parse(r.out);  // throws if a text report were mixed in
  CHECK(doc["schema_version"] == 1);
  CHECK(doc["result"]["seconds"].get<double>() > 0);
  CHECK_FALSE(hwsim::test::contains(r.out, "\n\n"));
}

TEST_CASE("cli: --json /dev/stdout into a pipe writes through") {
  auto dir = scratch_dir() / "devstdout";
  std::filesystem::create_directories(dir);
  std::string out = (dir / "piped.json").string();
  std::string command = "cd '" + std::string(HWSIM_SOURCE_DIR) + "' && '" + HWSIM_BINARY + "' " + kGemm +
                        " -q --json /dev/stdout | cat > '" + out + "'";
  REQUIRE(std::system(command.c_str()) == 0);
  auto doc = nlohmann::json::parse(read_text(out));
  CHECK(doc["result"]["steps"][0]["kernels"].size() >= 1);
  CHECK(std::filesystem::is_symlink("/dev/stdout"));
}

TEST_CASE("cli: --summary keeps totals and steps, drops the kernel records") {
  CliRun full = run_hwsim("--chip h100 --workload decode_llama8b -q --json -");
  CliRun summary = run_hwsim("--chip h100 --workload decode_llama8b -q --summary --json -");
  REQUIRE(full.exit_code == 0);
  REQUIRE(summary.exit_code == 0);
  auto f = nlohmann::json::parse(full.out), s = nlohmann::json::parse(summary.out);
  CHECK(s["detail"] == "summary");
  CHECK_FALSE(f.contains("detail"));
  CHECK(s["result"]["seconds"] == f["result"]["seconds"]);
  CHECK(s["result"]["llm"]["tokens_per_second"] == f["result"]["llm"]["tokens_per_second"]);
  CHECK_FALSE(s["result"]["steps"][0].contains("kernels"));
  CHECK(s["result"]["steps"][0]["records"] == f["result"]["steps"][0]["kernels"].size());
  CHECK(summary.out.size() * 20 < full.out.size());
}
