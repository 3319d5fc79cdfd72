#include "run/serving/serving_pass.h"

#include <fmt/format.h>

#include <algorithm>

namespace hwsim {

std::string StepPass::label() const {
  if (draft) return fmt::format("serve draft decode {}@{} prefill {}", decodes, context, prefill_tokens);
  if (query > 1) return fmt::format("serve verify {}x{}@{} prefill {}", decodes, query, context, prefill_tokens);
  return fmt::format("serve decode {}@{} prefill {}", decodes, context, prefill_tokens);
}

namespace {

// One pass: the decodes add `query` tokens each and reach `offset` positions past what they hold;
// the chunks (when given) are their own groups.
StepPass make_pass(const StepPlan& plan, const std::vector<ServeSeq>& seqs, const ServeSpec& spec,
                   const ModelArchitecture& model, bool draft, std::int64_t query, std::int64_t offset,
                   bool with_chunks) {
  StepPass p;
  p.draft = draft, p.query = query;
  std::int64_t n = std::int64_t(plan.decodes.size()) + plan.padding;
  std::int64_t sum = plan.padding * (plan.padding_context + offset);
  for (std::size_t id : plan.decodes) sum += seqs[id].computed + offset;
  if (n > 0) {
    std::int64_t mean = (sum + n - 1) / n, q = spec.context_bucket;
    p.context = std::min((mean + q - 1) / q * q, std::max<std::int64_t>(mean, model.max_context));
    p.shape.groups.push_back({n, query, p.context});
  }
  p.decodes = n;
  p.key = {draft ? 1 : 0, n, query, p.context};
  if (with_chunks)
    for (auto [id, tokens] : plan.chunks) {
      p.shape.groups.push_back({1, tokens, seqs[id].computed + tokens});
      p.key.push_back(tokens), p.key.push_back(seqs[id].computed + tokens);
      p.prefill_tokens += tokens;
    }
  p.shape.padding_tokens = spec.graph_rows(p.shape.tokens()) - p.shape.tokens();
  return p;
}

}  // namespace

std::vector<StepPass> step_passes(const StepPlan& plan, const std::vector<ServeSeq>& seqs, const ServeSpec& spec) {
  std::vector<StepPass> out;
  const SpeculativeSpec& sp = spec.speculative;
  bool decoding = !plan.decodes.empty() || plan.padding > 0;
  if (sp.on())
    for (std::int64_t i = 1; i <= sp.k; ++i)
      if (decoding || (i == 1 && !plan.chunks.empty()))
        out.push_back(make_pass(plan, seqs, spec, sp.draft, true, 1, i, i == 1));
  std::int64_t query = sp.on() ? sp.k + 1 : 1;
  out.push_back(make_pass(plan, seqs, spec, spec.arch, false, query, query, true));
  return out;
}

}  // namespace hwsim
