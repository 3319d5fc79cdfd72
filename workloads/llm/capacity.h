#pragma once
// Does a language-model run fit a memory capacity, and if not, what would? The comparison with
// the chip's HBM is the hardware side's; these helpers only do the arithmetic on LlmFacts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/workload.h"

namespace hwsim {

// Bytes the run would hold with `batch` sequences of `context` positions each (the step's new
// tokens per sequence capped at context): weights + KV cache + activations, as in footprint.h.
double footprint_bytes(const LlmFacts& facts, std::int64_t batch, std::int64_t context);

// Largest batch that fits `capacity_bytes` at the run's context; 0 if not even one sequence.
std::int64_t largest_fitting_batch(const LlmFacts& facts, double capacity_bytes);

// Largest context (<= max_context) that fits at the run's batch; 0 if none.
std::int64_t largest_fitting_context(const LlmFacts& facts, double capacity_bytes);

// One line: bytes needed (weights, KV cache, activations), bytes available, and whether it fits;
// if not, the largest batch at this context and the largest context at this batch that would
// (or that the weights alone exceed the capacity). "" for workloads without LLM facts.
std::string fit_advice(const Workload& workload, double capacity_bytes);
std::string fit_advice(const LlmFacts& facts, double capacity_bytes);

// Several devices (workload.stage_footprint not empty): one line for pipeline stage `stage`: what
// one of its devices needs (weights, KV cache, activations), what is available, and whether it
// fits; if not, the largest global batch (a multiple of dp·ep·microbatches) whose stage footprint
// would fit, or that the stage's weights alone exceed the capacity (more tp or pp ranks, or
// smaller weights). KV cache and activations of a stage grow linearly with the batch.
// "" for a workload without stage footprints or a stage out of range.
std::string stage_fit_advice(const Workload& workload, std::size_t stage, double capacity_bytes);
// The same with `footprints` standing for workload.stage_footprint (as a device holds them).
std::string stage_fit_advice(const Workload& workload, const std::vector<DeviceFootprint>& footprints,
                             std::size_t stage, double capacity_bytes);

}  // namespace hwsim
