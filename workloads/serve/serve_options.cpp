// The serve workload's options beyond the requests and the engine's batch limits (serve_spec.h):
// preemption, speculative decoding and where the engines run. Every mistake is one line naming
// the spec, the field and what would be right.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <regex>

#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "sim/units.h"
#include "workloads/llm/parallel_layout.h"
#include "workloads/serve/serve_spec.h"
#include "workloads/spec.h"

namespace hwsim {

namespace {

[[noreturn]] void fail(const WorkloadSpec& spec, const std::string& field, const std::string& what) {
  workload_error(fmt::format("workload '{}': {}: {}", spec.text(), field, what));
}

// One of `valid`, or a line naming them.
std::string choice(const WorkloadSpec& spec, const std::string& field, const std::string& fallback,
                   const std::vector<std::string>& valid) {
  std::string v = spec.word(field, fallback);
  if (std::find(valid.begin(), valid.end(), v) == valid.end())
    fail(spec, field, fmt::format("'{}' is not one of {}{}", v, join(valid), did_you_mean(v, valid)));
  return v;
}

// Models of `family` among the model files, for the advice of a mismatched draft.
std::string family_members(const std::string& family, const std::string& except) {
  std::vector<std::string> out;
  for (const auto& name : architecture_names()) {
    if (name == except) continue;
    try {
      if (load_architecture(name).tokenizer == family) out.push_back(name);
    } catch (const UserError&) {
    }
  }
  return out.empty() ? "none shipped" : join(out);
}

ModelArchitecture parse_draft(const WorkloadSpec& spec, const ModelArchitecture& target) {
  std::string name = spec.word("draft", "");
  ModelArchitecture d;
  try {
    d = load_architecture(name);
  } catch (const UserError& e) {
    fail(spec, "draft", e.what());
  }
  if (d.tokenizer != target.tokenizer || d.vocab != target.vocab)
    fail(spec, "draft", fmt::format("{} (tokenizer {}, vocabulary {}) cannot draft for {} (tokenizer {}, vocabulary "
                                    "{}): a draft proposes the target's token ids (drafts of the {} family: {})",
                                    d.name, d.tokenizer, d.vocab, target.name, target.tokenizer, target.vocab,
                                    target.tokenizer, family_members(target.tokenizer, target.name)));
  return d;
}

void parse_speculative(const WorkloadSpec& spec, ServeSpec& s) {
  SpeculativeSpec& sp = s.speculative;
  if (!spec.has("draft")) {
    for (const char* f : {"k", "accept", "baseline"})
      if (spec.has(f)) fail(spec, f, "needs a draft model (draft=MODEL, e.g. draft=llama3_2_1b)");
    return;
  }
  sp.draft = parse_draft(spec, s.arch);
  if (spec.has("k")) {
    std::string text = spec.word("k", "");
    std::int64_t k = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), k);
    if (ec != std::errc() || end != text.data() + text.size() || k < 1)
      fail(spec, "k", fmt::format("'{}': the draft tokens proposed per step must be a whole number >= 1", text));
    sp.k = k;
  }
  if (sp.k + 1 > s.max_tokens_per_step)
    fail(spec, "k", fmt::format("{} draft tokens need {} tokens of a sequence's verification step, above "
                                "max_tokens_per_step {}", sp.k, sp.k + 1, s.max_tokens_per_step));
  if (spec.has("accept")) {
    std::string text = spec.word("accept", "");
    double a = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), a);
    if (ec != std::errc() || end != text.data() + text.size() || !(a > 0 && a <= 1))
      fail(spec, "accept", fmt::format("'{}' is not in (0, 1] (the probability that the target accepts a draft token)",
                                       text));
    sp.accept = a;
  }
  sp.baseline = spec.boolean("baseline", true);
}

// "1P3D" → {1, 3}.
std::pair<std::int64_t, std::int64_t> parse_xpyd(const WorkloadSpec& spec) {
  std::string text = spec.word("disaggregate", "");
  std::smatch m;
  static const std::regex form("([0-9]{1,7})[Pp]([0-9]{1,7})[Dd]");
  if (!std::regex_match(text, m, form) || std::stoll(m[1]) < 1 || std::stoll(m[2]) < 1)
    fail(spec, "disaggregate", fmt::format("'{}' is not xPyD (x prefill and y decode instances, each >= 1: 1P1D, 2P6D) "
                                           "or none",
                                           text));
  return {std::stoll(m[1]), std::stoll(m[2])};
}

void parse_layout(const WorkloadSpec& spec, ServeSpec& s) {
  ServeLayout& l = s.layout;
  l.tp = spec.positive_int("tp", 1);
  l.round_robin = choice(spec, "router", "least_loaded", {"least_loaded", "round_robin"}) == "round_robin";
  if (spec.has("disaggregate") && spec.word("disaggregate", "") != "none") {
    if (spec.positive_int("dp", 1) != 1) fail(spec, "dp", "the instances come from disaggregate=xPyD; leave dp out");
    if (!s.continuous) fail(spec, "batching", "static batching cannot hand requests from prefill to decode instances");
    std::tie(l.prefill, l.decode) = parse_xpyd(spec);
    l.prefill_tp = spec.positive_int("prefill_tp", l.tp);
    l.decode_tp = spec.positive_int("decode_tp", l.tp);
  } else {
    for (const char* f : {"prefill_tp", "decode_tp"})
      if (spec.has(f)) fail(spec, f, "only with disaggregate=xPyD (tp= sizes every instance)");
    l.dp = spec.positive_int("dp", 1);
    l.prefill_tp = l.decode_tp = l.tp;
  }
  double devices = l.disaggregated() ? double(l.prefill) * double(l.prefill_tp) + double(l.decode) * double(l.decode_tp)
                                     : double(l.tp) * double(l.dp);
  if (devices > kMaxRanks)
    fail(spec, l.disaggregated() ? "disaggregate" : "dp",
         fmt::format("{:.0f} devices is out of range (at most {:.0f})", devices, kMaxRanks));
  for (std::int64_t tp : {l.prefill_tp, l.decode_tp}) {
    Parallelism p;
    p.tp = tp;
    check_parallelism(s.arch, 1, p, spec.text());
    if (s.speculative.on()) check_parallelism(s.speculative.draft, 1, p, spec.text());
  }
}

// vLLM V1's default capture sizes (vllm/config: set_cudagraph_sizes): 1, 2, 4, then multiples of 8
// below 256, then multiples of 16, up to min(2 · max_num_seqs, 512).
std::vector<std::int64_t> vllm_graph_sizes(std::int64_t max_batch) {
  const std::int64_t largest = std::min<std::int64_t>(2 * max_batch, 512);
  std::vector<std::int64_t> sizes = {1, 2, 4};
  for (std::int64_t n = 8; n < 256; n += 8) sizes.push_back(n);
  for (std::int64_t n = 256; n <= largest; n += 16) sizes.push_back(n);
  sizes.erase(std::remove_if(sizes.begin(), sizes.end(), [&](std::int64_t n) { return n > largest; }), sizes.end());
  return sizes;
}

// cuda_graphs=vllm (the default) | off | S1/S2/... (token counts, ascending, each a whole number >= 1).
void parse_cuda_graphs(const WorkloadSpec& spec, ServeSpec& s) {
  std::string text = spec.word("cuda_graphs", "vllm");
  if (text == "vllm") {
    s.graph_sizes = vllm_graph_sizes(s.max_batch);
    return;
  }
  if (text == "off") return;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = std::min(text.find('/', start), text.size());
    std::string item = text.substr(start, end - start);
    std::int64_t n = 0;
    auto [stop, ec] = std::from_chars(item.data(), item.data() + item.size(), n);
    if (ec != std::errc() || stop != item.data() + item.size() || n < 1 || n > (std::int64_t(1) << 24) ||
        (!s.graph_sizes.empty() && n <= s.graph_sizes.back()))
      fail(spec, "cuda_graphs", fmt::format("'{}' is not vllm, off or capture sizes in tokens, ascending, split by / "
                                            "(e.g. 1/2/4/8/16)", text));
    s.graph_sizes.push_back(n);
    start = end + 1;
  }
}

}  // namespace

std::int64_t ServeSpec::graph_rows(std::int64_t tokens) const {
  auto it = std::lower_bound(graph_sizes.begin(), graph_sizes.end(), tokens);
  return it == graph_sizes.end() ? tokens : *it;
}

const std::vector<std::string>& serve_option_fields() {
  static const std::vector<std::string> fields = {"preemption", "swap_space", "draft", "k", "accept", "baseline",
                                                  "tp", "dp", "disaggregate", "prefill_tp", "decode_tp", "router",
                                                  "cuda_graphs"};
  return fields;
}

void parse_serve_options(const WorkloadSpec& spec, ServeSpec& s) {
  s.preemption = choice(spec, "preemption", "recompute", {"recompute", "swap"}) == "swap" ? Preemption::swap
                                                                                          : Preemption::recompute;
  if (spec.has("swap_space")) {
    std::string text = spec.word("swap_space", ""), why;
    auto bytes = parse_quantity_as(text, Dimension::bytes, &why);
    if (!bytes || *bytes < 0 || *bytes > 1e15)
      fail(spec, "swap_space", fmt::format("'{}' is not a size of host memory (e.g. 4GiB; 0B for none){}", text,
                                           why.empty() ? "" : ": " + why));
    if (s.preemption != Preemption::swap) fail(spec, "swap_space", "only with preemption=swap");
    s.swap_space = *bytes;
  }
  parse_speculative(spec, s);
  parse_layout(spec, s);
  parse_cuda_graphs(spec, s);
}

}  // namespace hwsim
