#pragma once
// The `serve` workload (docs/serving.md): requests arriving over time at one serving engine on one
// device. Shapes only: the requests (arrival, prompt and output tokens) and the engine's settings;
// the scheduler loop that turns them into engine steps is app/serving_runner.
//   serve:model=M,requests=N,rate=R|inf,prompt=LEN,output=LEN,seed=S[,trace=FILE]
//         [,batching=continuous|static,max_batch=256,max_tokens_per_step=2048,chunked_prefill=true,
//          block=16,gpu_memory_utilization=0.9,context_bucket=16,reuse=true,slo_ttft=S,slo_tpot=S,
//          weights=,act=,kv=,kernels=,<architecture fields>]
// LEN: a whole number (fixed), uniform:A..B (inclusive) or normal:MEAN/STD/MIN..MAX (rounded to the
// nearest token, clamped; '/' because commas separate spec fields).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "workloads/llm/llm_run.h"

namespace hwsim {

struct ServeRequest {
  std::int64_t id = 0;
  double arrival = 0;        // seconds from the start of the run
  std::int64_t prompt = 0;   // tokens
  std::int64_t output = 0;   // tokens to generate (the first comes from the prefill step)
};

struct ServeSpec {
  ModelArchitecture arch;
  LlmDtypes dtypes;
  std::string framework;          // kernels=; empty: the device's default
  std::vector<ServeRequest> requests;  // by arrival, then id
  bool continuous = true;         // batching=continuous (vLLM) | static
  std::int64_t max_batch = 256;   // running sequences (vLLM max_num_seqs default 256)
  std::int64_t max_tokens_per_step = 2048;  // vLLM max_num_batched_tokens with chunked prefill
  bool chunked_prefill = true;    // a prompt may be split over steps and mixed with decodes
  std::int64_t block = 16;        // tokens per KV block (vLLM default 16)
  double gpu_memory_utilization = 0.9;  // vLLM default
  // Decode attention of a step runs as one group over the mean context rounded up to a multiple of
  // this (docs/serving.md: the approximation and its bound); 1: the mean rounded up to a token.
  std::int64_t context_bucket = 16;
  bool reuse = true;              // reuse the records of an identical step shape (changes no number)
  double slo_ttft = 0, slo_tpot = 0;  // seconds; 0: no bound
};

// Draws from std::mt19937_64's raw output with our own transforms (bit-identical on every
// standard library; std::*_distribution results are implementation-defined).
class ServeRandom {
 public:
  explicit ServeRandom(std::uint64_t seed);
  double uniform();                                   // [0, 1), 53 bits
  std::int64_t uniform_int(std::int64_t a, std::int64_t b);  // inclusive
  double exponential(double rate);                    // −ln(1 − u) / rate
  double normal(double mean, double stddev);          // Box–Muller, one value per call
 private:
  std::mt19937_64 engine_;
};

// A length distribution from LEN text; draws one value.
struct LengthDistribution {
  enum class Kind { fixed, uniform, normal } kind = Kind::fixed;
  std::int64_t value = 0, lo = 0, hi = 0;
  double mean = 0, stddev = 0;
  std::int64_t draw(ServeRandom& rng) const;
};
// Parses LEN; a mistake is one line naming `field`.
LengthDistribution parse_length(const std::string& text, const std::string& field, const std::string& spec);

// Reads a trace: CSV (header `arrival_s,prompt_tokens,output_tokens`, then one request a line) or
// JSONL (one object a line with those three keys). A malformed line is one error naming file:line
// and the field.
std::vector<ServeRequest> read_serve_trace(const std::string& path);

ServeSpec parse_serve_spec(const WorkloadSpec& spec);

}  // namespace hwsim
