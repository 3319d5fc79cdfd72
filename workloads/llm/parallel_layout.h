#pragma once
// The parallel layout of a language-model run (Parallelism in workloads/workload.h), as the spec
// gives it (tp=, pp=, ep=, dp=, microbatches=; each 1 by default), checked against the model, and
// the arithmetic every other file shares: which layers a pipeline stage holds, how many sequences
// one device works on, how the vocabulary is split. Shapes only: no hardware.
//
// Rules (each broken one is a one-line UserError(workload) naming the numbers and what would do):
// - tp divides the query heads AND the KV heads (each rank keeps whole heads; no KV-head
//   replication) and the FFN intermediate size (`ffn`). The vocabulary need not divide: as Megatron
//   does, it is padded, but only to the next multiple of tp (Megatron pads to a multiple of
//   128·tp; we skip the alignment so a divisible vocabulary keeps its exact FLOPs), and only when
//   tp > 1.
// - pp <= layers: stage s holds contiguous layers, as even as possible; the first (layers mod pp)
//   stages hold one layer more (Megatron's uneven split puts the extra layers first too).
// - ep > 1 needs a mixture-of-experts model, and ep divides the expert count.
// - ep ranks are data-parallel outside the experts (attention, norms, LM head): the sequences are
//   split over dp·ep, then each device's share into `microbatches` equal microbatches, so batch
//   must be divisible by dp·ep·microbatches.
// - microbatches > 1 needs pp > 1 (microbatches exist to fill a pipeline).
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/llm/architecture.h"
#include "workloads/workload.h"

namespace hwsim {

class WorkloadSpec;

// The spec fields: "tp", "pp", "ep", "dp", "microbatches".
const std::vector<std::string>& parallel_fields();

// Reads the fields (positive whole numbers, default 1); no cross-checks.
// Largest layouts a run accepts: the systems hold at most a million devices, and every
// microbatch is a copy of the step's ops.
inline constexpr double kMaxRanks = 1e6, kMaxMicrobatches = 4096;
// Throws UserError(workload) when the layout is beyond those bounds (before any product of them
// is formed in 64-bit integers).
void bound_parallelism(const Parallelism& p, const std::string& spec_text);

Parallelism parse_parallelism(const WorkloadSpec& spec);

// Checks the layout against the model and the batch (the rules above); errors are
// UserError(workload) "workload '<spec_text>': <one line>".
void check_parallelism(const ModelArchitecture& arch, std::int64_t batch, const Parallelism& p,
                       const std::string& spec_text);

// Layers [first, first + count) of one pipeline stage.
struct StageLayers {
  std::int64_t first = 0, count = 0;
};
// pp stages over `layers` layers: contiguous, as even as possible, the extra layers first.
std::vector<StageLayers> stage_layers(std::int64_t layers, std::int64_t pp);

// The vocabulary the embedding and LM head are split over: vocab rounded up to a multiple of tp
// when tp > 1 (vocab itself when tp = 1).
std::int64_t padded_vocab(std::int64_t vocab, std::int64_t tp);

// Sequences one device works on: batch / (dp·ep) (all microbatches), and per microbatch.
std::int64_t device_sequences(std::int64_t batch, const Parallelism& p);
std::int64_t microbatch_sequences(std::int64_t batch, const Parallelism& p);

// "tp=2 pp=4 ep=1 dp=1 microbatches=4"
std::string layout_text(const Parallelism& p);

}  // namespace hwsim
