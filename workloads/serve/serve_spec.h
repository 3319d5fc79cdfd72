#pragma once
// The `serve` workload (docs/serving.md): requests arriving over time at serving engines on one
// device or a system of devices. Shapes only: the requests (arrival, prompt and output tokens) and
// the engines' settings; the scheduler loop that turns them into engine steps is app/serving_*.
//   serve:model=M,requests=N,rate=R|inf,prompt=LEN,output=LEN,seed=S[,trace=FILE|dataset=FILE]
//         [,batching=continuous|static,max_batch=256,max_tokens_per_step=2048,chunked_prefill=true,
//          block=16,gpu_memory_utilization=0.9,kv_blocks=,context_bucket=16,reuse=true|false|ops,slo_ttft=T,slo_tpot=T,slo_e2el=T (a time: 200ms),
//          preemption=recompute|swap,swap_space=4GiB,
//          draft=MODEL,k=4,accept=0.6,baseline=true,
//          shared_prefix=N,prefix_caching=true|false,scheduling=fcfs|priority,priority=PRIO,
//          tp=1,dp=1,disaggregate=xPyD,prefill_tp=,decode_tp=,router=least_loaded|round_robin,
//          weights=,act=,kv=,kernels=,<architecture fields>]
// LEN: a whole number (fixed), uniform:A..B (inclusive) or normal:MEAN/STD/MIN..MAX (rounded to the
// nearest token, clamped; '/' because commas separate spec fields).
#include <cstdint>
#include <random>
#include <optional>
#include <string>
#include <vector>

#include "workloads/llm/llm_run.h"

namespace hwsim {

struct ServeRequest {
  std::int64_t id = 0;
  double arrival = 0;        // seconds from the start of the run
  std::int64_t prompt = 0;   // tokens
  std::int64_t output = 0;   // tokens to generate (the first comes from the prefill step)
  // What its prompt shares (docs/serving.md, "Prefix caching"): its first prefix_tokens tokens are
  // the first prefix_tokens tokens of group prefix_group's common text (-1: none shared).
  std::int64_t prefix_group = -1, prefix_tokens = 0;
  std::int64_t priority = 0;  // lower is served first under scheduling=priority (vLLM's convention)
};

// vLLM's two ways to free KV blocks when the pool is full (preemption_mode).
enum class Preemption { recompute, swap };

// Speculative decoding (docs/serving.md): a draft model proposes k tokens per step, the target
// verifies them in one step of k + 1 query tokens per sequence; each draft token is accepted with
// probability `accept`, independently, until the first rejection.
struct SpeculativeSpec {
  ModelArchitecture draft;        // draft.name empty: no speculation
  std::int64_t k = 4;             // tokens proposed per step (vLLM num_speculative_tokens)
  double accept = 0.6;            // per-token acceptance probability, in (0, 1]
  bool baseline = true;           // also simulate the run without speculation, for the speed-up
  bool on() const { return !draft.name.empty(); }
};

// Where the engines run (a system of devices for more than one device): `dp` replicas of `tp`
// devices each, or — disaggregated — `prefill` instances of prefill_tp devices that hand each
// request's KV cache over the links to one of `decode` instances of decode_tp devices.
struct ServeLayout {
  std::int64_t tp = 1, dp = 1;
  std::int64_t prefill = 0, decode = 0;     // disaggregate=xPyD; 0: not disaggregated
  std::int64_t prefill_tp = 1, decode_tp = 1;
  bool round_robin = false;                 // router=round_robin | least_loaded (fewest unfinished requests)
  bool disaggregated() const { return prefill > 0; }
  std::int64_t devices() const { return disaggregated() ? prefill * prefill_tp + decode * decode_tp : tp * dp; }
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
  std::int64_t kv_blocks = 0;     // the pool's blocks as given (vLLM num_gpu_blocks_override); 0: sized from memory
  // Decode attention of a step runs as one group over the mean context rounded up to a multiple of
  // this (docs/serving.md: the approximation and its bound); 1: the mean rounded up to a token.
  std::int64_t context_bucket = 16;
  bool reuse = true;              // reuse the time of an identical step shape (changes no number)
  // reuse=ops: compose a pass's time from its ops' shapes, each simulated once (app/serving_op_memo.h):
  // an approximation, off by default.
  bool reuse_ops = false;
  // Service-level bounds (seconds; 0: none): TTFT, TPOT and end-to-end latency per request; a
  // request within every bound given counts toward the goodput.
  double slo_ttft = 0, slo_tpot = 0, slo_e2el = 0;
  Preemption preemption = Preemption::recompute;  // vLLM's default
  double swap_space = 4.0 * (1 << 30);            // bytes of host memory per device for swapped KV (vLLM: 4 GiB)
  SpeculativeSpec speculative;
  ServeLayout layout;
  // Automatic prefix caching (vLLM enable_prefix_caching, on by default in v1): full KV blocks of a
  // declared shared prefix are kept and shared (docs/serving.md, "Prefix caching").
  bool prefix_caching = true;
  bool priority_scheduling = false;  // scheduling=priority | fcfs (docs/serving.md, "Priorities")
  // CUDA-graph capture sizes in tokens, ascending (cuda_graphs=vllm | off | S1/S2/...): a pass of at
  // most the largest size runs padded to the smallest size that holds it (docs/serving.md, "CUDA
  // graphs"); empty: no padding.
  std::vector<std::int64_t> graph_sizes;
  // The tokens a pass of `tokens` runs its token-wise ops over (itself when no size holds it).
  std::int64_t graph_rows(std::int64_t tokens) const;
  std::uint64_t seed = 0;         // the draw's seed; also seeds the acceptance draws
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

// `text` read whole as a finite number (std::stod of all of it), or nullopt.
std::optional<double> whole_text_number(const std::string& text);

// A length distribution from LEN text; draws one value.
struct LengthDistribution {
  enum class Kind { fixed, uniform, normal } kind = Kind::fixed;
  std::int64_t value = 0, lo = 0, hi = 0;
  double mean = 0, stddev = 0;
  std::int64_t draw(ServeRandom& rng) const;
};
// Parses LEN (each number at least `least`); a mistake is one line naming `field`.
LengthDistribution parse_length(const std::string& text, const std::string& field, const std::string& spec,
                                std::int64_t least = 1);

ServeSpec parse_serve_spec(const WorkloadSpec& spec);

// The fields of the options below, for reject_unused.
const std::vector<std::string>& serve_option_fields();
// preemption=, swap_space=, draft=, k=, accept=, baseline=, tp=, dp=, disaggregate=, prefill_tp=,
// decode_tp=, router= (workloads/serve/serve_options.cpp); each mistake one line naming the field.
void parse_serve_options(const WorkloadSpec& spec, ServeSpec& s);

// Which columns a request file gave beyond the lengths (workloads/serve/request_files.h).
struct RequestFileColumns {
  bool prefix = false, priority = false;
};
// The fields of parse_request_sharing, for reject_unused.
const std::vector<std::string>& serve_sharing_fields();
// shared_prefix=, prefix_caching=, scheduling=, priority= (workloads/serve/serve_sharing.cpp) over
// s.requests (drawn or read; `file` says which columns a file gave): each mistake one line naming
// the field, a request's prefix longer than its prompt among them.
void parse_request_sharing(const WorkloadSpec& spec, const RequestFileColumns& file, ServeSpec& s);

}  // namespace hwsim
