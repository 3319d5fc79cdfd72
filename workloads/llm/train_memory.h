#pragma once
// Memory one device holds while training (the `train` workload), by the frontend's shapes. Each
// rule and its source:
//
// Model states (Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion
// Parameter Models", §3.1 and Figure 1): mixed-precision Adam holds per parameter 2 B of 16-bit
// weights, 2 B of 16-bit gradients and K = 12 B of optimizer state (fp32 master copy, momentum m,
// variance v): 16 B/parameter. With weights=fp32 there is no separate master copy (4 + 4 + 8).
// ZeRO stage 1 splits the optimizer state over the dp ranks, stage 2 also the gradients, stage 3
// also the weights. Per device the parameters are first split as the forward lowering splits them
// (step_lowering.h, parallel_layout.h): by tensor parallelism (Megatron: attention by heads, the FFN
// by ffn, the embedding and LM head over the vocabulary padded to a multiple of tp; norms and the
// MoE router replicated) and by pipeline stage (stage_layers(): contiguous layers, the extra ones
// first; the embedding on the first stage, final norm and LM head on the last; a tied embedding on
// both). ZeRO-3 also holds the gathered 16-bit copy of the two largest parameter groups (the group
// in use and the prefetched one: a layer, the embedding or the head), counted under `weights`.
//
// Activations (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
// Models", §4, eq. 1-2 and Table 2): per layer and micro-batch, s·b·h·(34 + 5·a·s/h) bytes with
// 16-bit activations. The 5·a·s/h term is the a×s×s softmax output, its dropout mask and
// dropout output; the forward graph lowers attention to FlashAttention, which never stores them
// (the same saving as the paper's selective recomputation), so it is left out: 34·s·b·h per layer.
// With tp > 1 the forward lowering has no sequence parallelism, so Table 2's "tensor parallel" row
// applies: s·b·h·(10 + 24/tp) per layer (norms, residuals and the column-parallel GEMMs' inputs
// replicated on every rank). With checkpoint=full each layer keeps only its 16-bit input, 2·s·b·h
// (replicated over tp), and the layer being recomputed holds its full set once. The coefficients
// count 2-byte activations and scale with the act dtype (act=fp32 doubles them). Pipeline 1F1B
// (their §4.2.3): stage i holds min(pp − i, microbatches) micro-batches in flight. The last stage
// adds the fp32 logits of the loss, 4·s·b·V/tp (their output-layer term; V padded to tp).
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/llm/train_run.h"
#include "workloads/workload.h"

namespace hwsim {

// Parameter counts (elements) of a model, whole (no parallelism).
struct TrainParams {
  double embedding = 0;    // token embedding (+ learned position embedding)
  double layer = 0;        // one transformer layer (MoE: all experts and the router)
  double layer_active = 0; // of which one token multiplies (MoE: top_k experts of E)
  double final_norm = 0;
  double head = 0;         // LM head; 0 when tied to the embedding
  std::int64_t layers = 0;
  double total() const { return embedding + double(layers) * layer + final_norm + head; }
  // N of the PaLM MFU definition (6N per token): parameters in matrix multiplies a token goes
  // through — every layer's active weights and the LM head (the embedding when tied); not the
  // input embedding lookup.
  double flop_params(const ModelArchitecture& m) const;
};

TrainParams train_params(const ModelArchitecture& m);

// Parameters one device of pipeline stage `stage` holds before ZeRO sharding (split by tp and pp).
double train_stage_device_params(const TrainRun& run, int stage);

// Activation bytes one device of stage `stage` holds at its peak (rules above).
double train_activation_bytes(const TrainRun& run, int stage);

// What one device of stage `stage` holds (kv_cache is 0).
DeviceFootprint train_device_footprint(const TrainRun& run, int stage);

// One entry per pipeline stage.
std::vector<DeviceFootprint> train_stage_footprints(const TrainRun& run);

// The largest per-device total over the stages.
double train_peak_device_bytes(const TrainRun& run);

// One line for a capacity of `capacity_bytes` per device: what the fullest device needs, by kind,
// and whether it fits; if not, the change that fits on the same devices (another ZeRO stage,
// full checkpointing, a tp/pp layout with tp ≤ 8, or one sequence per micro-batch), else the
// fewest devices (a power of two times this layout) on which some layout fits, and the devices the
// model states alone need with everything sharded (16 B/parameter ÷ capacity). Among fitting
// layouts it prefers no recomputation, then the smallest tp·pp, then the run's micro-batch, then
// the lowest ZeRO stage; the global batch is kept where the micro-batch divides it.
std::string train_fit_advice(const TrainRun& run, double capacity_bytes);

}  // namespace hwsim
