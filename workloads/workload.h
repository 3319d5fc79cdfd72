#pragma once
// A workload: what to run, as one or more steps, each an op graph. Workload kinds register by
// name ("gemm", "decode", ...) with a builder from a WorkloadSpec; presets are names whose
// builder fills in defaults and delegates.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ops/op_graph.h"
#include "workloads/llm/train_facts.h"
#include "workloads/spec.h"

namespace hwsim {

struct WorkloadStep {
  std::string label;  // "step", "prefill", "decode@513", ...
  OpGraph graph;      // empty when the step is lowered just in time (`lower`)
  // Language-model steps only (0 / "" otherwise): new tokens the step produces (one per sequence:
  // the LM head's next token) and its phase, "prefill" or "decode".
  std::int64_t tokens = 0;
  std::string phase{};
  // Set for a step whose graph is built only when a runner reaches it (a long generate's decode
  // steps: thousands of graphs are never held at once); `graph` is then empty. Use step_graph().
  std::function<OpGraph()> lower{};
  // Optional, for a step whose graph is the step before's with only some ops' shapes changed (a
  // generate's decode steps: the attention ops' cache length): rewrites, in place, the step
  // before's graph, after any framework pass (passes keep those ops as they are), into this
  // step's; false when the graph given is not such a graph. A runner that still holds the step
  // before's graph may call it instead of lowering this step (and passing it) again; the graph,
  // its order and its tensors are then the same as lowering would give.
  std::function<bool(OpGraph&)> reshape{};
};

// The op graph of `step`: its `graph`, or, for a step lowered just in time, the graph built now
// into `holder` (which the caller keeps while it uses the graph and drops after). Built in place:
// an OpGraph (a Boost adjacency_list) has no move, only a deep copy.
const OpGraph& step_graph(const WorkloadStep& step, std::unique_ptr<OpGraph>& holder);

// What the hardware side needs to know about a language-model workload's memory, beyond its op
// graphs: the footprint of this run and the per-unit sizes to find the largest batch or context
// that fits a capacity (workloads/llm/capacity.h). Bytes are exact for the dtypes.
struct LlmFacts {
  std::string model;               // "llama3_8b"
  std::string phase;               // "decode" | "prefill" | "generate"
  std::int64_t batch = 0;          // sequences
  std::int64_t context = 0;        // positions each sequence holds at the end (new tokens included)
  std::int64_t step_tokens = 0;    // new tokens per sequence in the largest step (prompt, or 1)
  std::int64_t max_context = 0;    // the model's limit
  std::int64_t window = 0;         // > 0: the cache keeps only the last `window` positions
  double weight_bytes = 0;         // every weight held in memory (embedding, layers, norms, head)
  double quantised_weights = 0;    // of which, elements stored weight-only in `weights_dtype` (narrower
                                   // than the activations); their scales are the device's, not counted
  DType weights_dtype = DType::bf16;
  double kv_bytes = 0;             // the whole KV cache: batch · kept positions · kv_bytes_per_token
  double activation_bytes = 0;     // live activations of the largest step (see activation_bytes_*)
  double kv_bytes_per_token = 0;   // K and V of one position of one sequence, all layers
  double activation_bytes_per_token = 0;     // per new token in a step (largest live set)
  double activation_bytes_per_sequence = 0;  // per sequence per step (last-token hidden + logits)
  double total_bytes() const { return weight_bytes + kv_bytes + activation_bytes; }
};

// How a workload spreads over devices (Megatron-style): tp ranks split each layer, pp stages hold
// contiguous layers (`microbatches` flow through them), ep ranks hold a share of the MoE experts,
// dp replicas each hold the whole (sharded) model. Ranks are numbered tp fastest, then ep, dp, pp:
// rank = tp_i + tp·(ep_i + ep·(dp_i + dp·pp_i)), so a tensor-parallel group sits on neighbouring
// devices (one node).
struct Parallelism {
  std::int64_t tp = 1, pp = 1, ep = 1, dp = 1;
  std::int64_t microbatches = 1;
  // Megatron's sequence parallelism (Korthikanti et al. 2022) with tp > 1: the norms, residual
  // adds and the activations between them are split over the tp ranks along the sequence; each
  // tp all-reduce becomes a reduce-scatter after the row-parallel GEMM and an all-gather before
  // the column-parallel one (the same bytes on the links).
  bool sequence_parallel = false;
  std::int64_t ranks() const { return tp * pp * ep * dp; }
  bool single() const { return ranks() == 1; }
};

// What one device holds in memory, by the frontend's shapes (a language model's sharded weights,
// KV cache, activations, gradients and optimizer state). The runner checks it against each
// device's main memory.
struct DeviceFootprint {
  double weights = 0, kv_cache = 0, activations = 0, gradients = 0, optimizer = 0;
  double quantised_weights = 0;  // elements of `weights` stored weight-only (LlmFacts::quantised_weights)
  double total() const { return weights + kv_cache + activations + gradients + optimizer; }
};

struct Workload {
  std::string kind;          // registered name that built it ("gemm")
  std::string spec;          // the spec text as given
  std::vector<WorkloadStep> steps;
  std::optional<LlmFacts> llm;  // set by language-model workloads (decode, prefill, generate)
  // The frontend pass the workload asks for (workloads/passes: "eager", "fused", "xla"); empty:
  // the device's default.
  std::string framework;
  // Several devices: the layout, and per pipeline stage what each of its devices holds (empty: the
  // single-device checks apply). Ops carry their stage (Op::stage) and collectives their axis.
  Parallelism parallel;
  std::vector<DeviceFootprint> stage_footprint;
  std::optional<TrainFacts> train;  // set by training workloads (tokens, model FLOPs for MFU)
  // The `serve` workload (workloads/serve): requests over time; `steps` is empty, the serving
  // runner (app/serving_runner) builds each engine step from the scheduler's batch.
  std::shared_ptr<const struct ServeSpec> serve;
  // Things the user should know that do not stop the run (a context beyond the model's trained
  // maximum), one line each; the CLI prints them on stderr.
  std::vector<std::string> warnings;
  // One line: what would fit a device of `capacity` bytes (a language model's or training job's
  // layout advice); empty when the workload has none. Set by the builder.
  std::function<std::string(double capacity)> fit_advice;
};

using WorkloadBuilder = std::function<Workload(const WorkloadSpec&)>;

struct WorkloadEntry {
  std::string description;   // one line, with the fields it takes
  WorkloadBuilder build;
};

class WorkloadCatalog {
 public:
  static std::map<std::string, WorkloadEntry>& entries();
  static bool add(const std::string& name, std::string description, WorkloadBuilder build);
  // Parses and builds; unknown names list the registered ones.
  static Workload build(const std::string& spec_text);
};

#define HWSIM_REGISTER_WORKLOAD(name, description, builder)                              \
  static const bool HWSIM_REGISTER_CONCAT(workload_registered_, __LINE__) =             \
      ::hwsim::WorkloadCatalog::add(name, description, builder)

}  // namespace hwsim

#include "sim/registry.h"  // HWSIM_REGISTER_CONCAT
