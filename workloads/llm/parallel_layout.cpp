#include "workloads/llm/parallel_layout.h"

#include <fmt/format.h>
#include <numeric>

#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "workloads/spec.h"

namespace hwsim {

namespace {

// "1, 2, 4, 8": the divisors of n.
std::string divisors(std::int64_t n) {
  std::vector<std::string> out;
  for (std::int64_t d = 1; d <= n; ++d)
    if (n % d == 0) out.push_back(std::to_string(d));
  return join(out);
}

}  // namespace

const std::vector<std::string>& parallel_fields() {
  static const std::vector<std::string> fields = {"tp", "pp", "ep", "dp", "microbatches"};
  return fields;
}

Parallelism parse_parallelism(const WorkloadSpec& spec) {
  Parallelism p;
  p.tp = spec.positive_int("tp", 1);
  p.pp = spec.positive_int("pp", 1);
  p.ep = spec.positive_int("ep", 1);
  p.dp = spec.positive_int("dp", 1);
  p.microbatches = spec.positive_int("microbatches", 1);
  bound_parallelism(p, spec.text());
  return p;
}

void bound_parallelism(const Parallelism& p, const std::string& spec_text) {
  double ranks = double(p.tp) * double(p.pp) * double(p.ep) * double(p.dp);
  if (ranks > kMaxRanks)
    workload_error(fmt::format("workload '{}': tp·pp·ep·dp = {:.0f} ranks is out of range (at most {:.0f})", spec_text,
                               ranks, kMaxRanks));
  if (double(p.microbatches) > kMaxMicrobatches)
    workload_error(fmt::format("workload '{}': microbatches={} is out of range (at most {:.0f}: each is a copy of the "
                               "step's ops)", spec_text, p.microbatches, kMaxMicrobatches));
}

void check_parallelism(const ModelArchitecture& m, std::int64_t batch, const Parallelism& p,
                       const std::string& spec_text) {
  auto fail = [&](const std::string& what) { workload_error(fmt::format("workload '{}': {}", spec_text, what)); };
  if ((m.is_mla() || m.shared_experts > 0 || m.dense_layers > 0) && !(p.single() && p.microbatches == 1))
    fail(fmt::format("{} (multi-head latent attention, shared experts, dense first layers) runs on one device only "
                     "in this model: tp, pp, ep, dp and microbatches must be 1", m.name));
  // Values of tp every split of the layer accepts: the divisors of gcd(heads, kv_heads, ffn).
  std::int64_t tp_ok = std::gcd(std::gcd(m.heads, m.kv_heads), m.ffn);
  if (m.heads % p.tp != 0 || m.kv_heads % p.tp != 0)
    fail(fmt::format("tp={} does not divide the {} query heads and {} KV heads of {} (tp = {} would)", p.tp, m.heads,
                     m.kv_heads, m.name, divisors(tp_ok)));
  if (m.ffn % p.tp != 0)
    fail(fmt::format("tp={} does not divide the FFN intermediate size (ffn) {} of {} (tp = {} would)", p.tp, m.ffn,
                     m.name, divisors(tp_ok)));
  if (p.pp > m.layers)
    fail(fmt::format("pp={} exceeds the {} layers of {} (each stage holds at least one layer: pp = 1 to {})", p.pp,
                     m.layers, m.name, m.layers));
  if (p.ep > 1 && !m.is_moe())
    fail(fmt::format("ep={} needs a mixture-of-experts model; {} is dense (experts = 1)", p.ep, m.name));
  if (m.experts % p.ep != 0)
    fail(fmt::format("ep={} does not divide the {} experts of {} (ep = {} would)", p.ep, m.experts, m.name,
                     divisors(m.experts)));
  if (p.microbatches > 1 && p.pp == 1)
    fail(fmt::format("microbatches={} needs pp > 1: microbatches fill a pipeline (with one stage they would only run "
                     "one after another)", p.microbatches));
  bool divisible = batch % p.dp == 0 && (batch / p.dp) % p.ep == 0 && (batch / p.dp / p.ep) % p.microbatches == 0;
  if (!divisible) {
    double unit = double(p.dp) * double(p.ep) * double(p.microbatches);
    fail(fmt::format("batch={} is not divisible by dp·ep·microbatches = {:.0f} (dp={}, ep={}, microbatches={}): each "
                     "device takes batch/(dp·ep) sequences, in microbatches of equal size",
                     batch, unit, p.dp, p.ep, p.microbatches));
  }
}

std::vector<StageLayers> stage_layers(std::int64_t layers, std::int64_t pp) {
  std::vector<StageLayers> stages;
  std::int64_t first = 0;
  for (std::int64_t s = 0; s < pp; ++s) {
    std::int64_t count = layers / pp + (s < layers % pp ? 1 : 0);
    stages.push_back({first, count});
    first += count;
  }
  return stages;
}

std::int64_t padded_vocab(std::int64_t vocab, std::int64_t tp) {
  if (tp <= 1) return vocab;
  return (vocab + tp - 1) / tp * tp;
}

std::int64_t device_sequences(std::int64_t batch, const Parallelism& p) { return batch / (p.dp * p.ep); }

std::int64_t microbatch_sequences(std::int64_t batch, const Parallelism& p) {
  return device_sequences(batch, p) / p.microbatches;
}

std::string layout_text(const Parallelism& p) {
  return fmt::format("tp={} pp={} ep={} dp={} microbatches={}", p.tp, p.pp, p.ep, p.dp, p.microbatches);
}

}  // namespace hwsim
