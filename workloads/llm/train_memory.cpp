#include "workloads/llm/train_memory.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <optional>
#include <tuple>

#include "sim/units.h"
#include "workloads/llm/parallel_layout.h"

namespace hwsim {

namespace {

std::string bytes(double b) { return format_quantity(b, Dimension::bytes, 3); }

double norm_params(const ModelArchitecture& m) { return m.norm == "rmsnorm" ? double(m.hidden) : 2.0 * double(m.hidden); }

// One layer's parameters on one tp rank (tp divides heads, kv_heads and ffn: parallel_layout.h).
double layer_params_per_rank(const ModelArchitecture& m, std::int64_t tp) {
  const double h = double(m.hidden), D = double(m.head_dim), t = double(tp);
  double attention = (2.0 * double(m.heads) + 2.0 * double(m.kv_heads)) * D * h / t;  // q, o; k, v
  double ffn = double(m.experts) * (m.gated ? 3 : 2) * h * double(m.ffn) / t;
  double router = m.is_moe() ? double(m.experts) * h : 0;
  return attention + ffn + router + 2 * norm_params(m);
}

// The token embedding (or an LM head) on one tp rank: the vocabulary padded to a multiple of tp
// and split; learned positions replicated.
double embedding_per_rank(const ModelArchitecture& m, std::int64_t tp) {
  double table = double(padded_vocab(m.vocab, tp) / tp) * double(m.hidden);
  return table + (m.position == "learned" ? double(m.max_context) * double(m.hidden) : 0);
}
double head_per_rank(const ModelArchitecture& m, std::int64_t tp) {
  return double(padded_vocab(m.vocab, tp) / tp) * double(m.hidden);
}

// Bytes of optimizer state per parameter: Adam's m and v in fp32, plus the fp32 master copy
// unless the weights are fp32 themselves.
double optimizer_bytes_per_param(const TrainRun& run) {
  return (run.dtypes.weights == DType::fp32 ? 0.0 : 4.0) + 8.0;
}

// Largest parameter group a stage's device gathers at once under ZeRO-3 (a layer, the
// embedding, or the final norm + head), per tp rank.
double largest_group(const TrainRun& run, int stage) {
  const ModelArchitecture& m = run.arch;
  const std::int64_t tp = run.parallel.tp;
  double largest = layer_params_per_rank(m, tp);
  bool first = stage == 0, last = stage == int(run.parallel.pp) - 1;
  if (first) largest = std::max(largest, embedding_per_rank(m, tp));
  if (last) largest = std::max(largest, norm_params(m) + head_per_rank(m, tp));
  return largest;
}

std::int64_t stage_layer_count(const TrainRun& run, int stage) {
  return stage_layers(run.arch.layers, run.parallel.pp).at(std::size_t(stage)).count;
}

}  // namespace

TrainParams train_params(const ModelArchitecture& m) {
  const double h = double(m.hidden), D = double(m.head_dim), f = double(m.ffn);
  const double attn = double(m.heads + 2 * m.kv_heads) * D * h + double(m.heads) * D * h;
  const double per_expert = (m.gated ? 3 : 2) * h * f;
  const double router = m.is_moe() ? double(m.experts) * h : 0;
  TrainParams p;
  p.layers = m.layers;
  p.layer = attn + double(m.experts) * per_expert + router + 2 * norm_params(m);
  p.layer_active = attn + double(m.is_moe() ? m.top_k : 1) * per_expert + router + 2 * norm_params(m);
  p.embedding = double(m.vocab) * h + (m.position == "learned" ? double(m.max_context) * h : 0);
  p.final_norm = norm_params(m);
  p.head = m.tied_embeddings ? 0 : double(m.vocab) * h;
  return p;
}

double TrainParams::flop_params(const ModelArchitecture& m) const {
  return double(layers) * layer_active + final_norm + double(m.vocab) * double(m.hidden);
}

double train_stage_device_params(const TrainRun& run, int stage) {
  const ModelArchitecture& m = run.arch;
  const std::int64_t pp = run.parallel.pp, tp = run.parallel.tp;
  double params = double(stage_layer_count(run, stage)) * layer_params_per_rank(m, tp);
  bool first = stage == 0, last = stage == int(pp) - 1;
  if (first) params += embedding_per_rank(m, tp);
  if (last) params += norm_params(m) + (m.tied_embeddings ? 0 : head_per_rank(m, tp));
  if (last && !first && m.tied_embeddings) params += head_per_rank(m, tp);  // Megatron keeps a copy on the last stage
  return params;
}

double train_activation_bytes(const TrainRun& run, int stage) {
  const ModelArchitecture& m = run.arch;
  const double t = double(run.parallel.tp);
  const double scale = bytes_per_element(run.dtypes.act) / 2.0;  // the coefficients count 2-byte activations
  const double sbh = double(run.seq) * double(run.micro_batch()) * double(m.hidden);
  // Table 2, "tensor parallel" (no sequence parallelism): the norms, residuals and the inputs of
  // the column-parallel GEMMs (10·sbh) are replicated on every tp rank, the rest (24·sbh) split;
  // with sequence parallelism all 34·sbh are split. Selective recomputation drops the attention
  // scores' 5·a·s²·b term, which FlashAttention never keeps here: the same bytes as none.
  const bool sp = run.parallel.sequence_parallel && run.parallel.tp > 1;
  const double layer_full = sbh * (sp ? 34.0 / t : 10.0 + 24.0 / t) * scale;
  const double layer_checkpoint = 2.0 * sbh * scale / (sp ? t : 1.0);  // the layer's input
  const double in_flight = double(std::min<std::int64_t>(run.parallel.pp - stage, run.parallel.microbatches));
  const double layers = double(stage_layer_count(run, stage));
  double bytes = run.checkpoint == Checkpointing::full ? in_flight * layers * layer_checkpoint + layer_full
                                                       : in_flight * layers * layer_full;
  if (stage == int(run.parallel.pp) - 1)  // fp32 logits of the loss, vocabulary-parallel
    bytes += 4.0 * double(run.seq) * double(run.micro_batch()) *
             double(padded_vocab(m.vocab, run.parallel.tp) / run.parallel.tp);
  return bytes;
}

DeviceFootprint train_device_footprint(const TrainRun& run, int stage) {
  const double params = train_stage_device_params(run, stage);
  const double w = bytes_per_element(run.dtypes.weights);
  const double dp = double(run.parallel.dp);
  DeviceFootprint f;
  f.weights = run.zero >= 3 ? params * w / dp + 2.0 * largest_group(run, stage) * w : params * w;
  f.gradients = run.zero >= 2 ? params * w / dp : params * w;
  f.optimizer = params * optimizer_bytes_per_param(run) / (run.zero >= 1 ? dp : 1.0);
  f.activations = train_activation_bytes(run, stage);
  return f;
}

std::vector<DeviceFootprint> train_stage_footprints(const TrainRun& run) {
  std::vector<DeviceFootprint> out;
  for (int s = 0; s < int(run.parallel.pp); ++s) out.push_back(train_device_footprint(run, s));
  return out;
}

double train_peak_device_bytes(const TrainRun& run) {
  double peak = 0;
  for (const DeviceFootprint& f : train_stage_footprints(run)) peak = std::max(peak, f.total());
  return peak;
}

namespace {

int fullest_stage(const TrainRun& run) {
  auto stages = train_stage_footprints(run);
  int best = 0;
  for (int s = 1; s < int(stages.size()); ++s)
    if (stages[std::size_t(s)].total() > stages[std::size_t(best)].total()) best = s;
  return best;
}

std::string layout(const TrainRun& r) {
  std::string text = fmt::format("dp={}", r.parallel.dp);
  if (r.parallel.tp > 1) text += fmt::format(",tp={}", r.parallel.tp);
  if (r.parallel.pp > 1) text += fmt::format(",pp={}", r.parallel.pp);
  if (r.parallel.microbatches > 1) text += fmt::format(",microbatches={}", r.parallel.microbatches);
  return text + fmt::format(",zero={},checkpoint={}", r.zero, checkpoint_name(r.checkpoint));
}

bool tp_valid(const ModelArchitecture& m, std::int64_t tp) {
  return m.heads % tp == 0 && m.kv_heads % tp == 0 && m.ffn % tp == 0;
}

// The best layout over `devices` devices that fits `capacity`: the run's micro-batch per replica,
// or one sequence (more micro-batches: gradient accumulation). Preferred: no recomputation, then
// the smallest tp·pp, then the run's micro-batch, then the lowest ZeRO stage, then the least memory.
// The largest tp the advice proposes: Megatron's practice of keeping a tensor-parallel group inside
// one 8-GPU server, a convention of the advice only (a run may ask for any tp the heads allow).
constexpr std::int64_t kAdviceMaxTp = 8;

std::optional<TrainRun> best_fit(const TrainRun& run, std::int64_t devices, double capacity) {
  std::optional<TrainRun> best;
  std::tuple<int, std::int64_t, int, int, double> best_key{};
  std::vector<std::int64_t> micro_batches = {run.micro_batch()};
  if (run.micro_batch() > 1) micro_batches.push_back(1);
  for (std::int64_t b : micro_batches)
    for (std::int64_t tp = 1; tp <= std::min(kAdviceMaxTp, devices); tp *= 2) {
      if (devices % tp != 0 || !tp_valid(run.arch, tp)) continue;
      for (std::int64_t pp = 1; pp <= std::min(devices / tp, run.arch.layers); ++pp) {
        if ((devices / tp) % pp != 0) continue;
        for (int zero = 0; zero <= 3; ++zero) {
          for (Checkpointing ck : {Checkpointing::none, Checkpointing::full}) {
            TrainRun c = run;
            c.parallel.tp = tp, c.parallel.pp = pp, c.parallel.dp = devices / (tp * pp);
            // Keep the global batch where the micro-batch divides it (more micro-batches per
            // replica), else the run's micro-batches (at least pp of them with a pipeline).
            const std::int64_t per_pass = b * c.parallel.dp;
            c.parallel.microbatches = run.batch % per_pass == 0 ? run.batch / per_pass
                                                                : std::max(run.parallel.microbatches, pp);
            c.batch = per_pass * c.parallel.microbatches;
            c.zero = zero, c.checkpoint = ck;
            double need = train_peak_device_bytes(c);
            if (need > capacity) continue;
            auto key = std::make_tuple(ck == Checkpointing::full ? 1 : 0, tp * pp, b == run.micro_batch() ? 0 : 1,
                                       zero, need);
            if (!best || key < best_key) best = c, best_key = key;
          }
        }
      }
    }
  return best;
}

std::string devices_text(std::int64_t n) { return fmt::format("{} device{}", n, n == 1 ? "" : "s"); }

}  // namespace

std::string train_fit_advice(const TrainRun& run, double capacity) {
  const int stage = fullest_stage(run);
  const DeviceFootprint f = train_device_footprint(run, stage);
  const std::int64_t devices = run.parallel.ranks();
  std::string head = fmt::format(
      "{} training ({}, {}, micro-batch {} x {} tokens): needs {} per device{} (weights {}, gradients {}, "
      "optimizer {}, activations {}), {} available",
      run.arch.name, layout(run), devices_text(devices), run.micro_batch(), run.seq, bytes(f.total()),
      run.parallel.pp > 1 ? fmt::format(" on stage {}", stage) : "", bytes(f.weights), bytes(f.gradients),
      bytes(f.optimizer), bytes(f.activations), bytes(capacity));
  if (f.total() <= capacity) return head + ": fits";

  const TrainParams p = train_params(run.arch);
  const double per_param = 2.0 * bytes_per_element(run.dtypes.weights) + optimizer_bytes_per_param(run);
  const double states = p.total() * per_param;
  const auto states_devices = std::int64_t(std::ceil(states / capacity));
  std::string states_text =
      fmt::format("model states alone, {:.0f} B x {:.3g} G parameters = {}, need at least {} devices of {} with "
                  "everything sharded", per_param, p.total() / 1e9, bytes(states), states_devices, bytes(capacity));

  auto describe = [&](const TrainRun& c) {
    return fmt::format("{} (batch={}, micro-batch {}: {} per device)", layout(c), c.batch, c.micro_batch(),
                       bytes(train_peak_device_bytes(c)));
  };
  if (auto same = best_fit(run, devices, capacity))
    return fmt::format("{}: does not fit; fits on these {} with {}; {}", head, devices_text(devices), describe(*same),
                       states_text);
  for (std::int64_t n = devices * 2; n <= devices * 1024; n *= 2)
    if (auto more = best_fit(run, n, capacity))
      return fmt::format("{}: does not fit; no layout fits on {}: {}; fits on {} with {}", head,
                         devices_text(devices), states_text, devices_text(n), describe(*more));
  return fmt::format("{}: does not fit; no layout fits on up to {}: {}", head, devices_text(devices * 1024),
                     states_text);
}

}  // namespace hwsim
