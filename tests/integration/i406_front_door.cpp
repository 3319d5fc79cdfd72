// The front door: `hwsim list` alone prints the lists there are; `list llms` the language models
// (and `list models` both kinds of model, labelled); a workload takes a model file by path; the
// report says which clock a FLOP/s peak assumes.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: list alone prints the list of lists") {
  CliRun r = run_hwsim("list");
  CHECK(r.exit_code == 0);
  for (const char* what : {"chips", "systems", "workloads", "llms", "models", "params", "frameworks", "kinds", "kernels"})
    CHECK_MESSAGE(contains(r.out, std::string("  ") + what + " "), what);
}

TEST_CASE("cli: list llms prints the language models; list models labels device and language models") {
  CliRun l = run_hwsim("list llms");
  CHECK(l.exit_code == 0);
  CHECK(contains(l.out, "model=llama3_8b"));
  CHECK(contains(l.out, "32 layers, hidden 4096"));  // workloads/llm/models/llama3_8b.toml
  CHECK(contains(l.out, "8 experts (top 2)"));       // mixtral_8x7b
  CliRun m = run_hwsim("list models");
  CHECK(m.exit_code == 0);
  CHECK(contains(m.out, "device models"));
  CHECK(contains(m.out, "kind = gpu"));
  CHECK(contains(m.out, "language models"));
  CHECK(contains(m.out, "model=llama3_8b"));
}

TEST_CASE("cli: a workload takes a model file by path") {
  auto file = scratch_dir() / "tiny_llm.toml";
  std::ofstream(file) << "layers = 2\nhidden = 256\nheads = 4\nkv_heads = 4\nhead_dim = 64\nffn = 1024\n"
                         "activation = \"silu\"\ngated = true\nvocab = 1000\nnorm = \"rmsnorm\"\nposition = \"rope\"\n"
                         "window = 0\nexperts = 1\ntop_k = 1\ntied_embeddings = false\nmax_context = 4096\n";
  auto json = scratch_dir() / "tiny_llm.json";
  CliRun r = run_hwsim("--chip h100 -w decode:model=" + file.string() + ",batch=1,context=128 --json '" + json.string() + "'");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  std::ifstream in(json);
  auto doc = nlohmann::json::parse(in);
  // bf16 weights of the file's shape: 2 layers × (4 × 256² attention + 3 × 256 × 1024 FFN) plus
  // embedding and LM head 2 × 1000 × 256 = 2,609,152 parameters (norms add ~1 K) → ~5.22 MB
  const double weights = doc["result"]["llm"]["memory"]["weight_bytes"].get<double>();
  CHECK(weights > 5.2e6);
  CHECK(weights < 5.3e6);
  CliRun missing = run_hwsim("--chip h100 -w decode:model=" + (scratch_dir() / "none.toml").string() + ",batch=1");
  CHECK(missing.exit_code != 0);
  CHECK(lines_of(missing.err).size() == 1);
  CHECK(contains(missing.err, "none.toml"));
}

TEST_CASE("cli: the achieved FLOP/s line says which clock the peak assumes") {
  CliRun r = run_hwsim("--chip h100 -w gemm:M=1024,N=1024,K=1024,dtype=bf16");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "peak at 1.98 GHz, gpu.sm.clock"));
}
