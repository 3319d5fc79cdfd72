// Bad serve input: one stderr line naming what is wrong, nothing on stdout, exit 4.
#include <doctest/doctest.h>

#include <fstream>

#include "tests/integration/i37_serve_support.h"

using namespace hwsim::test;

TEST_CASE("cli serve: a request longer than the context exits 4") {
  one_line(run_hwsim("--chip h100 -w serve:model=llama3_8b,requests=2,prompt=8000,output=500"),
           "request 0 holds 8500 tokens (prompt 8000 + output 500), above llama3_8b's max_context 8192");
}

TEST_CASE("cli serve: rate <= 0 exits 4") {
  one_line(run_hwsim("--chip h100 -w serve:model=llama3_8b,rate=0"), "rate: 0 requests/s: must be > 0");
}

TEST_CASE("cli serve: a pool too small for one request exits 4") {
  one_line(run_hwsim("--chip h100 -w serve:model=llama3_8b,requests=1,prompt=4096,output=4096,"
                     "gpu_memory_utilization=0.2"),
           "less than the longest request's 8192 tokens");
}

TEST_CASE("cli serve: a malformed trace names the file, line and field") {
  auto path = scratch_dir() / "bad.csv";
  std::ofstream(path) << "arrival_s,prompt_tokens,output_tokens\n0,128,64\n0.5,12x,64\n";
  one_line(run_hwsim("--chip h100 -w serve:model=llama3_8b,trace=" + path.string()),
           path.string() + ":3: prompt_tokens: '12x' is not a number");
  auto jl = scratch_dir() / "bad.jsonl";
  std::ofstream(jl) << "{\"arrival_s\": 0, \"prompt_tokens\": 10, \"output_tokens\": 5}\n{\"arrival_s\": 1, "
                       "\"prompt_tokens\": 10}\n";
  one_line(run_hwsim("--chip h100 -w serve:model=llama3_8b,trace=" + jl.string()), jl.string() + ":2: output_tokens: missing");
}
