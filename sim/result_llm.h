#pragma once
// Language-model metrics of a run, as plain structs (part of RunResult). Derived once by
// app/llm_metrics.cpp from the workload's tokens and the finalized records; printers only format.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hwsim {

struct LlmStepMetrics {
  std::string label, phase;
  std::int64_t tokens = 0;
  double seconds = 0;
  double tokens_per_second = 0;
  double mbu = 0;  // step's main-memory bytes / seconds / peak main-memory bandwidth
  double mfu = 0;  // step's FLOPs / seconds / peak FLOP rate
};

// Time and roofline floor of one op class (gemm, attention, norm, elementwise, ...), summed over
// the run, launches excluded; "launch_gaps" holds the records' launches and any step time not
// covered by a record (floor 0). The classes add up to the run's time.
struct LlmClassTime {
  double seconds = 0;
  double roofline_floor = 0;
  std::int64_t records = 0;
};

// One operation of the model summed over layers and steps ("qkv_proj" for L0.qkv_proj ...
// L31.qkv_proj), launches excluded: where a step's time goes, op by op. `lowering` is the first
// record's.
struct LlmOperationTime {
  std::string op_class, bound, lowering;
  double seconds = 0;
  double roofline_floor = 0;
  double times_floor = 0;  // seconds / roofline_floor (0 when the floor is 0)
  std::int64_t records = 0;
};

// An operation's distance from its roofline floor, by its record farthest from it (step, name):
// excess = seconds − floor, ratio = seconds / floor; `records`: the operation's records in the run.
struct LlmRecordDistance {
  std::string step, name, operation, op_class, bound;
  double seconds = 0, roofline_floor = 0, excess = 0, ratio = 0;
  std::int64_t records = 1;
};

struct LlmMetrics {
  bool present = false;          // false for workloads without tokens (gemm, attention)
  std::int64_t tokens = 0;       // produced by the whole run
  double seconds = 0;
  double tokens_per_second = 0;  // whole run
  double ttft = 0;               // prefill step time (0 without a prefill step)
  double tpot = 0;               // mean decode step time (0 without decode steps)
  double decode_tokens_per_second = 0;  // decode tokens / decode time
  double prefill_tokens_per_second = 0; // prompt (input) tokens / prefill time (0 without a prefill)
  std::int64_t prompt_tokens = 0;  // input tokens the prefill processed (batch × prompt; 0 without one)
  double mbu = 0, mfu = 0;       // whole run; on a system, over every device used. Training: mfu
                                 // counts model FLOPs (PaLM: 6N + 12·L·H·Q·T per token, no
                                 // recomputation), hfu PaLM's hardware FLOPs (the rematerialised
                                 // forward added), so hfu ≥ mfu
  double hfu = 0;
  double joules_per_token = 0;   // whole run's energy (every device used) / tokens produced
  double tokens_per_joule = 0;   // tokens / whole run's energy (= tokens/s per watt)
  double joules_per_prompt_token = 0;  // a prefill run's energy / prompt tokens (0 with decode steps)
  std::map<std::string, LlmClassTime> by_class;
  std::vector<std::pair<std::string, LlmOperationTime>> by_operation;  // most time first
  std::vector<LlmStepMetrics> steps;
  std::vector<LlmRecordDistance> farthest_from_floor;  // the kLlmFarthestRecords operations of largest excess
};

inline constexpr std::size_t kLlmFarthestRecords = 10;

}  // namespace hwsim
