#pragma once
// Facts about a training step that the metrics need beyond its op graph: tokens, model FLOPs
// (for MFU), the layout and the model-state size. Plain data, hardware-free, and free of other
// hwsim headers so that workloads/workload.h can hold one (`std::optional<TrainFacts> train;`).
// Built by make_train_facts() (train_workload.h).
//
// MFU (PaLM, Chowdhery et al. 2022, Appendix B): model FLOPs per token = 6·N + 12·L·H·Q·T, with N
// the parameters a token multiplies (TrainParams::flop_params: every layer's weights — for MoE
// the top_k experts' — and the LM head; not the input embedding lookup), L layers, H query heads,
// Q head_dim, T the sequence length (the attention span: min(seq, window) with a sliding window;
// PaLM's term counts all T keys, not the causal half). 6 = 2 (multiply-add) × 3 (forward,
// backward for the input gradient, backward for the weight gradient). Model FLOPs do not count
// recomputation: with checkpoint=full the devices execute one more forward of the layers, which
// PaLM's HFU counts (hardware FLOPs = model FLOPs + that forward, by the same formula: 2·N_layers +
// 4·L·H·Q·T per token), so HFU ≥ MFU; MFU stays model FLOPs / (step time × devices × peak FLOP rate
// per device). What the step graph executes (causal attention: half of PaLM's attention term; the
// flash backward's recompute, norms, the optimizer) is executed_flops, which the simulation runs.
#include <cstdint>
#include <string>

namespace hwsim {

struct TrainFacts {
  std::string model;
  std::int64_t batch = 0;          // global sequences per optimizer step
  std::int64_t seq = 0;            // tokens per sequence
  std::int64_t tokens = 0;         // batch · seq: tokens trained on per step, all replicas
  std::int64_t micro_batch = 0;    // sequences per micro-batch per data-parallel replica
  std::int64_t tp = 1, pp = 1, dp = 1, microbatches = 1;
  std::int64_t devices = 1;        // tp · pp · dp
  int zero = 0;                    // ZeRO stage
  std::string checkpoint;          // "none" | "full"
  double params = 0;               // Ψ: every parameter of the model
  double flop_params = 0;          // N of 6N (see above)
  double model_flops = 0;          // per step, whole job: tokens · (6N + 12·L·H·Q·T)
  double hardware_flops = 0;       // per step, whole job: model_flops + the rematerialised forward
  // Per step, whole job: every op of the step graph × the devices running it (tp · dp per stage;
  // recomputation, the optimizer and the attention backward's recompute included). 0 if unknown.
  double executed_flops = 0;
  double model_state_bytes = 0;    // weights + gradients + optimizer state of the whole model (16 B × Ψ in bf16)

  // Fractions of the job's peak: FLOPs / (seconds × devices × peak FLOP/s of one device).
  double mfu(double step_seconds, double peak_flop_rate_per_device) const {
    double denominator = step_seconds * double(devices) * peak_flop_rate_per_device;
    return denominator > 0 ? model_flops / denominator : 0;
  }
  double hfu(double step_seconds, double peak_flop_rate_per_device) const {
    double denominator = step_seconds * double(devices) * peak_flop_rate_per_device;
    return denominator > 0 ? hardware_flops / denominator : 0;
  }
};

}  // namespace hwsim
