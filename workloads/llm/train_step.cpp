#include "workloads/llm/train_step.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <stdexcept>

#include "workloads/llm/op_names.h"
#include "workloads/llm/parallel_layout.h"
#include "workloads/llm/step_lowering.h"
#include "workloads/llm/train_autocast.h"
#include "workloads/llm/train_backward.h"
#include "workloads/llm/train_grad_copies.h"

namespace hwsim {

namespace {

// One op of the forward template (one micro-batch, every stage), with its parameter attribution.
struct FwdNode {
  Op op;
  std::vector<int> inputs;     // template indices, in in-edge order
  std::vector<int> consumers;  // template indices
  int group = 0;               // -1 embed, 0..layers-1 a layer, layers: final norm, head, loss
  double owned = 0;            // parameters whose gradient this op produces
  double used = 0;             // parameters it reads (ZeRO-3 gathers them)
  bool column_parallel = false;  // tp > 1: its input gradient is a partial sum over the tp ranks
  bool send_recv = false;      // a pipeline transfer: not recomputed
  AutocastOps autocast;        // weights=fp32 with 16-bit act: the casts around it (train_autocast.h)
};

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

int group_of(const std::string& name, std::int64_t layers) {
  if (name.size() > 1 && name[0] == 'L' && std::isdigit(static_cast<unsigned char>(name[1])))
    return std::stoi(name.substr(1, name.find('.') - 1));
  if (name.rfind("embed", 0) == 0) return -1;  // embed, embed_all_reduce
  return int(layers);
}

StreamOp stream(double read, double written, double flops, std::int64_t rows) {
  StreamOp s;
  s.bytes_read = read, s.bytes_written = written, s.flops = flops, s.rows = rows;
  return s;
}

// Softmax cross-entropy over the logits, per token: max, exp, sum, log, pick (forward: 4 FLOP per
// logit); backward: exp(x − lse) − one-hot, scaled (3 FLOP per logit).
constexpr double kLossFlops = 4, kLossBackwardFlops = 3;
// Bytes of a sharded fp32 master weight, which FSDP2 casts to the gather's dtype before each all-gather.
constexpr double kMasterBytes = 4;

// Appends the loss over the head's logits (this rank's vocabulary shard) to the forward nodes.
// tp > 1: Megatron's vocabulary-parallel cross-entropy all-reduces the per-token max, then the
// target logit and the sum of exponentials (fp32, one value per token each; counted as one op).
void append_loss(std::vector<FwdNode>& nodes, const TrainRun& run, int head) {
  const ModelArchitecture& m = run.arch;
  const std::int64_t tokens = run.micro_batch() * run.seq, tp = run.parallel.tp;
  const int stage = nodes[std::size_t(head)].op.stage;
  const double a = bytes_per_element(run.dtypes.act), T = double(tokens);
  const double V = double(std::get<GemmOp>(nodes[std::size_t(head)].op.shape).n);
  auto append = [&](Op op, std::vector<int> inputs) {
    FwdNode n;
    op.stage = stage;
    n.op = std::move(op);
    n.inputs = std::move(inputs);
    n.group = int(m.layers);
    nodes.push_back(std::move(n));
    return int(nodes.size()) - 1;
  };
  auto reduce = [&](const std::string& name, double bytes, int input) {
    CollectiveOp c;
    c.kind = CollectiveKind::all_reduce, c.bytes = bytes, c.axis = ParallelAxis::tp, c.ranks = tp;
    c.dtype = DType::fp32;
    return append(Op(name, "collective", c), {input});
  };
  int logits = head;
  if (tp > 1) logits = reduce("loss.max_all_reduce", T * 4, head);
  StreamOp cross_entropy = stream(T * V * a, 2 * T * 4, kLossFlops * T * V, tokens);
  cross_entropy.element_bytes = a;
  int loss = append(Op("loss", "reduction", cross_entropy), {logits});
  if (tp > 1) reduce("loss.sum_all_reduce", 2 * T * 4, loss);
}

// torch.autocast's casts and fp32 rows around the template's ops (train_autocast.h); without
// autocast (`whole` false) only the fp32 loss (loss=fp32: F.cross_entropy(logits.float())).
void apply_autocast(std::vector<FwdNode>& nodes, const TrainRun& run, int head, bool whole = true) {
  const std::int64_t tokens = run.micro_batch() * run.seq;
  for (FwdNode& n : nodes) {
    if (!whole && n.op.name != "loss") continue;
    if (n.op.name == "loss") {
      const auto vocab = std::get<GemmOp>(nodes[std::size_t(head)].op.shape).n;
      n.autocast = autocast_loss(n.op, tokens, vocab, run);
    } else if (std::holds_alternative<GemmOp>(n.op.shape) && n.used > 0) {
      bool fp32_input = false;
      for (int u : n.inputs) fp32_input = fp32_input || nodes[std::size_t(u)].op.op_class == "norm";
      n.autocast = autocast_linear(n.op, fp32_input, run.arch.linear_bias && n.op.name != "lm_head", run);
    } else {
      autocast_residual_stream(n.op, run);
    }
  }
}

std::vector<FwdNode> forward_template(const TrainRun& run) {
  const ModelArchitecture& m = run.arch;
  const std::int64_t tokens = run.micro_batch() * run.seq;
  const std::int64_t tp = run.parallel.tp;
  Parallelism layout;
  layout.tp = tp, layout.pp = run.parallel.pp;  // one micro-batch of one replica
  layout.sequence_parallel = run.parallel.sequence_parallel;
  OpGraph g = lower_parallel_llm_step(m, run.dtypes, LlmStepShape{run.micro_batch(), run.seq, run.seq}, layout);
  std::vector<FwdNode> nodes;
  std::vector<int> index(boost::num_vertices(g), -1);
  std::vector<std::vector<int>> redirect(boost::num_vertices(g));
  const double norm_params = m.norm == "rmsnorm" ? double(m.hidden) : 2.0 * double(m.hidden);
  int head = -1;
  for (OpVertex v : execution_order(g)) {
    std::vector<int> inputs;
    auto take = [&](int i) {
      if (std::find(inputs.begin(), inputs.end(), i) == inputs.end()) inputs.push_back(i);
    };
    for (auto [e, end] = boost::in_edges(v, g); e != end; ++e) {
      OpVertex u = boost::source(*e, g);
      if (index[u] >= 0) take(index[u]);
      else for (int i : redirect[u]) take(i);
    }
    Op op = g[v];
    // No cache in training (attention takes K and V from the projection and RoPE), and no logits
    // gather (the loss is vocabulary-parallel).
    if (ends_with(op.name, ".kv_append") || op.name == "logits_all_gather") {
      redirect[v] = inputs;
      continue;
    }
    FwdNode n;
    n.group = group_of(op.name, m.layers);
    if (auto* gemm = std::get_if<GemmOp>(&op.shape)) {
      if (op.name == "lm_head") gemm->m = tokens, head = int(nodes.size());  // logits for every position
      bool experts = ends_with(op.name, ".expert_gate_up") || ends_with(op.name, ".expert_down");
      n.used = double(gemm->n) * double(gemm->k) * double(experts ? m.experts : gemm->groups);
      // Tied on one stage: the head's gradient is the embedding's (counted there).
      n.owned = op.name == "lm_head" && m.tied_embeddings && run.parallel.pp == 1 ? 0 : n.used;
      // With sequence parallelism the all-gather before it carries the input gradient back instead
      // (its backward is a reduce-scatter).
      n.column_parallel = tp > 1 && !run.parallel.sequence_parallel && (ends_with(op.name, ".qkv_proj") || ends_with(op.name, ".gate_up") ||
                                     ends_with(op.name, ".up_proj") || ends_with(op.name, ".expert_gate_up") ||
                                     op.name == "lm_head");
    } else if (op.op_class == "norm") {
      n.used = n.owned = norm_params;
    } else if (op.name == "embed") {
      n.used = n.owned = double(padded_vocab(m.vocab, tp) / tp) * double(m.hidden) +
                         (m.position == "learned" ? double(m.max_context) * double(m.hidden) : 0);
    } else if (auto* c = std::get_if<CollectiveOp>(&op.shape)) {
      n.send_recv = c->kind == CollectiveKind::send_recv;
    }
    n.op = std::move(op);
    n.inputs = std::move(inputs);
    index[v] = int(nodes.size());
    nodes.push_back(std::move(n));
  }
  if (head < 0) throw std::logic_error("train: the forward graph has no lm_head");
  append_loss(nodes, run, head);
  if (uses_autocast(run)) apply_autocast(nodes, run, head);
  else if (run.fp32_loss) apply_autocast(nodes, run, head, false);
  for (int i = 0; i < int(nodes.size()); ++i)
    for (int j : nodes[std::size_t(i)].inputs) nodes[std::size_t(j)].consumers.push_back(i);
  return nodes;
}

class TrainStepBuilder {
 public:
  explicit TrainStepBuilder(const TrainRun& run)
      : run_(run), nodes_(forward_template(run)), w_(bytes_per_element(run.dtypes.weights)),
        r_(bytes_per_element(run.grad_reduce)),
        pp_(int(run.parallel.pp)), mbs_(run.parallel.microbatches), stage_groups_(std::size_t(pp_)),
        buckets_(std::size_t(pp_)), root_buckets_(std::size_t(pp_)), bucket_index_(std::size_t(pp_), 0), bucket_vertices_(std::size_t(pp_)),
        last_producers_(std::size_t(pp_)) {
    for (int i = 0; i < int(nodes_.size()); ++i) {
      const FwdNode& n = nodes_[std::size_t(i)];
      auto& groups = stage_groups_[std::size_t(n.op.stage)];
      if (groups.empty() || groups.back() != n.group) groups.push_back(n.group);
      members_[{n.op.stage, n.group}].push_back(i);
      group_used_[{n.op.stage, n.group}] += n.used;
    }
    fwd_.assign(std::size_t(mbs_), std::vector<OpVertex>(nodes_.size(), 0));
    dx_.assign(std::size_t(mbs_), std::vector<std::vector<OpVertex>>(nodes_.size()));
  }

  OpGraph build() {
    expect_ops(ops_per_microbatch() * double(mbs_), fmt::format("the training step's op graph (microbatches={})", mbs_));
    schedule();
    for (int s = 0; s < pp_; ++s) optimizer(s);
    return std::move(g_);
  }

 private:
  struct Task {
    bool backward = false;
    std::int64_t mb = 0;
  };

  // The ops one micro-batch adds over every stage: each forward op, its recompute (checkpoint=full,
  // in a layer) and its backward ops (with a column-parallel input gradient's all_reduce). Bucket
  // collectives and ZeRO-3 gathers come per group, not per op, and are left out: a lower bound.
  double ops_per_microbatch() const {
    double ops = 0;
    for (const FwdNode& n : nodes_) {
      const bool recomputed = recomputes(n);
      BackwardOps b = n.op.name == "loss" ? loss_backward(n.op) : backward_of(n.op, "");
      const double prologue = double(n.autocast.prologue.size());
      const bool replaced = n.op.name == "loss" && !n.autocast.grad_ops.empty();  // autocast's loss backward
      ops += 1 + prologue + (recomputed && !n.send_recv ? 1 + prologue : 0) + double(replaced ? 0 : b.ops.size()) +
             double(n.autocast.grad_ops.size() + n.autocast.accumulate.size()) +
             (b.grad_input >= 0 && n.column_parallel ? 1 : 0);
    }
    return ops;
  }

  // 1F1B (Narayanan et al. 2021, PipeDream-Flush as in Megatron-LM): stage s runs
  // min(pp − s − 1, M) warm-up forwards, then alternates one forward and one backward, then
  // drains the backwards. pp = 1: F0 B0 F1 B1 … (gradient accumulation). The stages' sequences
  // are merged into one insertion order that respects every cross-stage dependency.
  void schedule() {
    const std::size_t stages = std::size_t(pp_), micro = std::size_t(mbs_);
    std::vector<std::vector<Task>> seq(stages);
    for (int s = 0; s < pp_; ++s) {
      std::int64_t warm = std::min<std::int64_t>(pp_ - s - 1, mbs_);
      auto& q = seq[std::size_t(s)];
      for (std::int64_t j = 0; j < warm; ++j) q.push_back({false, j});
      for (std::int64_t j = 0; j < mbs_ - warm; ++j) q.push_back({false, warm + j}), q.push_back({true, j});
      for (std::int64_t j = mbs_ - warm; j < mbs_; ++j) q.push_back({true, j});
    }
    std::vector<std::vector<bool>> fdone(micro, std::vector<bool>(stages, false));
    std::vector<std::vector<bool>> bdone = fdone;
    std::vector<std::size_t> next(stages, 0);
    for (bool progress = true; progress;) {
      progress = false;
      for (int s = 0; s < pp_; ++s) {
        auto& q = seq[std::size_t(s)];
        while (next[std::size_t(s)] < q.size()) {
          Task t = q[next[std::size_t(s)]];
          std::size_t j = std::size_t(t.mb), st = std::size_t(s);
          bool ready = t.backward ? fdone[j][st] && (s == pp_ - 1 || bdone[j][st + 1]) : (s == 0 || fdone[j][st - 1]);
          if (!ready) break;
          if (t.backward) backward(t.mb, s), bdone[j][st] = true;
          else forward(t.mb, s), fdone[j][st] = true;
          ++next[st];
          progress = true;
        }
      }
    }
    for (int s = 0; s < pp_; ++s)
      if (next[std::size_t(s)] != seq[std::size_t(s)].size())
        throw std::logic_error("train: the pipeline schedule deadlocked");
  }

  bool reduces() const { return run_.parallel.dp > 1; }

  // Whether the backward runs node n's forward op again first: checkpoint=full, every op of a layer
  // but a pipeline transfer; selective, a layer's core attention.
  bool recomputes(const FwdNode& n) const {
    if (n.group < 0 || n.group >= run_.arch.layers || n.send_recv) return false;
    if (run_.checkpoint == Checkpointing::full) return true;
    return run_.checkpoint == Checkpointing::selective && n.op.op_class == "attention";
  }
  bool zero3() const { return run_.zero >= 3 && reduces(); }

  std::string mb(std::int64_t j) const { return microbatch_prefix(j, mbs_); }

  std::string group_name(int gr) const {
    if (gr < 0) return "embed";
    if (gr >= run_.arch.layers) return "head";
    return layer_name(gr);
  }

  OpVertex emit(Op op, int stage, const std::vector<OpVertex>& inputs) {
    std::vector<OpVertex> in;
    for (OpVertex v : inputs)
      if (std::find(in.begin(), in.end(), v) == in.end()) in.push_back(v);
    op.stage = stage;
    return add_op(g_, std::move(op), in);
  }

  CollectiveOp collective(CollectiveKind kind, double bytes, bool async, ParallelAxis axis = ParallelAxis::dp) const {
    CollectiveOp c;
    c.kind = kind, c.bytes = bytes, c.axis = axis, c.async = async;
    c.ranks = axis == ParallelAxis::dp ? run_.parallel.dp : run_.parallel.tp;
    c.dtype = axis == ParallelAxis::dp ? run_.dtypes.weights : run_.dtypes.act;
    return c;
  }
  CollectiveOp grad_collective(CollectiveKind kind, double bytes) const {
    CollectiveOp c = collective(kind, bytes, true);
    c.dtype = run_.grad_reduce;
    return c;
  }

  // A forward op renamed with `prefix` (its composite parts too).
  static Op renamed(const Op& op, const std::string& prefix) {
    Op out = op;
    out.name = prefix + op.name;
    for (OpPart& p : out.parts) p.name = prefix + p.name;
    return out;
  }

  // zero_impl=fsdp2: the root unit (embedding, final norm, head), gathered once per step.
  bool root_unit(int gr) const {
    return run_.zero_impl == ZeroImpl::fsdp2 && (gr < 0 || gr >= run_.arch.layers);
  }
  // Parameters the gather of group gr reads on `stage` (the root unit's: both its groups').
  double unit_used(int stage, int gr) {
    if (!root_unit(gr)) return group_used_[{stage, gr}];
    return group_used_[{stage, -1}] + group_used_[{stage, int(run_.arch.layers)}];
  }
  // ZeRO-3: the gather of group order[k] of `stage` for the current pass (the root unit's: for the
  // step), issued once, before it is needed, after its copy-in.
  void ensure_gather(int stage, const std::vector<int>& order, std::size_t k, const std::string& prefix) {
    if (k >= order.size()) return;
    int gr = order[k];
    double used = unit_used(stage, gr);
    if (gathers_.count(gr) || (root_unit(gr) && root_gather_.count(stage)) || used <= 0) return;
    const std::string name = prefix + "zero3.gather." + (root_unit(gr) ? std::string("root") : group_name(gr));
    OpVertex in = emit(gather_copy_in(name + ".copy_in", used, kMasterBytes, w_, double(run_.parallel.dp)), stage, {});
    OpVertex v = emit(Op(name, "collective", collective(CollectiveKind::all_gather, used * w_, true)), stage, {in});
    if (root_unit(gr)) root_gather_[stage] = v;
    else gathers_[gr] = v;
  }
  // The vertex group gr's ops wait for: its gather's copy-out, emitted once the group is entered.
  std::optional<OpVertex> gathered(int stage, int gr) const {
    if (root_unit(gr)) {
      auto it = root_ready_.find(stage);
      return it == root_ready_.end() ? std::nullopt : std::optional<OpVertex>(it->second);
    }
    auto it = ready_.find(gr);
    return it == ready_.end() ? std::nullopt : std::optional<OpVertex>(it->second);
  }
  void make_ready(int stage, int gr) {
    if (gathered(stage, gr)) return;
    auto raw = root_unit(gr) ? root_gather_.find(stage) : gathers_.find(gr);
    if (raw == (root_unit(gr) ? root_gather_.end() : gathers_.end())) return;
    const std::string name = g_[raw->second].name + ".copy_out";
    OpVertex v = emit(gather_copy_out(name, unit_used(stage, gr), w_), stage, {raw->second});
    if (root_unit(gr)) root_ready_[stage] = v;
    else ready_[gr] = v;
  }
  // Entering group order[k]: its gather, the next group's (prefetch), and its copy-out.
  void enter_group(int stage, const std::vector<int>& order, std::size_t k, const std::string& prefix) {
    if (!zero3()) return;
    ensure_gather(stage, order, k, prefix);
    ensure_gather(stage, order, k + 1, prefix);
    make_ready(stage, order[k]);
  }
  void with_gather(std::vector<OpVertex>& inputs, const FwdNode& n) {
    if (!zero3() || n.used <= 0) return;
    auto v = gathered(n.op.stage, n.group);
    if (!v) throw std::logic_error("train: a ZeRO-3 group used before its gather");
    inputs.push_back(*v);
  }

  // Node n's op (renamed with `prefix`) after its autocast casts, which run one after another on
  // its inputs; returns the op's vertex.
  OpVertex emit_with_prologue(const FwdNode& n, const std::string& prefix, int s, std::vector<OpVertex> inputs) {
    std::vector<OpVertex> casts;
    for (const Op& c : n.autocast.prologue) {
      std::vector<OpVertex> after = inputs;
      after.insert(after.end(), casts.begin(), casts.end());
      casts.push_back(emit(renamed(c, prefix), s, after));
    }
    inputs.insert(inputs.end(), casts.begin(), casts.end());
    return emit(renamed(n.op, prefix), s, inputs);
  }

  // The forward ops of micro-batch j on stage s (their inputs from earlier stages are the
  // send_recv ops those emitted).
  void forward(std::int64_t j, int s) {
    const std::string p = mb(j);
    auto& fwd = fwd_[std::size_t(j)];
    const std::vector<int>& order = stage_groups_[std::size_t(s)];
    gathers_.clear(), ready_.clear();
    for (std::size_t k = 0; k < order.size(); ++k) {
      enter_group(s, order, k, p);
      for (int i : members_[{s, order[k]}]) {
        const FwdNode& n = nodes_[std::size_t(i)];
        std::vector<OpVertex> inputs;
        for (int u : n.inputs) inputs.push_back(fwd[std::size_t(u)]);
        with_gather(inputs, n);
        fwd[std::size_t(i)] = emit_with_prologue(n, p, s, inputs);
      }
    }
  }

  // The backward of micro-batch j on stage s: groups in reverse, each (checkpoint=full, a layer)
  // recomputed first.
  void backward(std::int64_t j, int s) {
    const std::string p = mb(j);
    const bool reduce_now = reduces() && (run_.zero >= 2 || j == mbs_ - 1);
    const std::int64_t layers = run_.arch.layers;
    const auto& fwd = fwd_[std::size_t(j)];
    auto& dx = dx_[std::size_t(j)];
    std::vector<int> order(stage_groups_[std::size_t(s)].rbegin(), stage_groups_[std::size_t(s)].rend());
    std::vector<OpVertex> saved = fwd;
    gathers_.clear(), ready_.clear();
    last_microbatch_ = j == mbs_ - 1;
    first_microbatch_ = j == 0;
    for (std::size_t k = 0; k < order.size(); ++k) {
      const int gr = order[k];
      const std::vector<int>& members = members_[{s, gr}];
      enter_group(s, order, k, p + "bwd.");
      if (run_.checkpoint != Checkpointing::none && gr >= 0 && gr < layers) {
        for (int i : members) {
          const FwdNode& n = nodes_[std::size_t(i)];
          if (!recomputes(n)) continue;
          std::vector<OpVertex> inputs;
          for (int u : n.inputs) inputs.push_back(saved[std::size_t(u)]);  // recomputed in-layer, kept outside
          with_gather(inputs, n);
          saved[std::size_t(i)] = emit_with_prologue(n, p + "recompute.", s, inputs);
        }
      }
      for (auto it = members.rbegin(); it != members.rend(); ++it) backward_op(*it, s, p, saved, dx, reduce_now);
      // FSDP2: a block's gradients reduce-scattered as one unit right after its backward.
      if (reduce_now && run_.zero_impl == ZeroImpl::fsdp2 && !root_unit(gr)) close_bucket(s);
    }
    if (reduce_now) close_bucket(s), close_bucket(s, root_buckets_[std::size_t(s)]);
  }

  void backward_op(int i, int s, const std::string& p, const std::vector<OpVertex>& saved,
                   std::vector<std::vector<OpVertex>>& dx, bool reduce_now) {
    const FwdNode& n = nodes_[std::size_t(i)];
    std::vector<OpVertex> grads;
    for (int c : n.consumers) grads.insert(grads.end(), dx[std::size_t(c)].begin(), dx[std::size_t(c)].end());
    Op named = renamed(n.op, p);
    // Under autocast the loss's backward is autocast's (grad_ops); other ops' grad_ops follow theirs.
    const bool autocast_loss = n.op.name == "loss" && !n.autocast.grad_ops.empty();
    BackwardOps b = autocast_loss ? autocast_backward(n.autocast, p)
                    : n.op.name == "loss" ? loss_backward(named) : backward_of(named, "");
    if (b.ops.empty()) {  // a tp all_reduce (g): the gradient passes through
      dx[std::size_t(i)] = grads;
      return;
    }
    std::vector<OpVertex> inputs = grads;
    if (!is_collective(n.op)) inputs.push_back(saved[std::size_t(i)]);
    with_gather(inputs, n);
    std::vector<OpVertex> made;
    for (std::size_t k = 0; k < b.ops.size(); ++k) {
      Op op = std::move(b.ops[k]);
      op.name = p + "bwd." + op.name.substr(p.size());
      made.push_back(emit(std::move(op), s, inputs));
      // f's conjugate: the column-parallel GEMM's input gradient summed over the tp ranks, issued
      // async right after dX so that dW overlaps it (Megatron's async tensor-parallel all-reduce).
      if (int(k) == b.grad_input && n.column_parallel) {
        const auto& gemm = std::get<GemmOp>(n.op.shape);
        double bytes = double(gemm.m) * double(gemm.k) * double(gemm.groups) * bytes_per_element(gemm.a);
        Op ar(p + "bwd." + n.op.name + ".dx_all_reduce", "collective",
              collective(CollectiveKind::all_reduce, bytes, true, ParallelAxis::tp));
        made[std::size_t(k)] = emit(std::move(ar), s, {made.back()});
      }
    }
    if (!autocast_loss) append_autocast_grads(n, p, s, made, b);
    if (b.grad_input >= 0) dx[std::size_t(i)] = {made[std::size_t(b.grad_input)]};
    if (n.owned > 0 && b.grad_param >= 0) {
      OpVertex producer = made[std::size_t(b.grad_param)];
      if (last_microbatch_) last_producers_[std::size_t(s)].push_back(producer);
      if (reduce_now) add_to_bucket(s, n.group, producer, n.owned);
    }
  }

  // Autocast's backward ops of a node, renamed with `p`, as a BackwardOps (the loss's whole backward).
  static BackwardOps autocast_backward(const AutocastOps& a, const std::string& p) {
    BackwardOps b;
    for (const Op& op : a.grad_ops) b.ops.push_back(renamed(op, p));
    b.grad_input = a.grad_input;
    return b;
  }

  // After node n's backward ops (`made`, indexed by `b`): autocast's gradient casts, each after
  // every op before it, then (a micro-batch after the first) the accumulation into .grad; `b`'s
  // producers move to them.
  void append_autocast_grads(const FwdNode& n, const std::string& p, int s, std::vector<OpVertex>& made,
                             BackwardOps& b) {
    const AutocastOps& a = n.autocast;
    if (a.grad_ops.empty()) return;
    const int base = int(made.size());
    auto after_all = [&](const Op& op) {
      Op named = renamed(op, p);
      named.name = p + "bwd." + named.name.substr(p.size());
      made.push_back(emit(std::move(named), s, made));
    };
    for (const Op& op : a.grad_ops) after_all(op);
    if (a.grad_param >= 0) b.grad_param = base + a.grad_param;
    if (a.grad_input >= 0) b.grad_input = base + a.grad_input;
    if (first_microbatch_) return;
    for (const Op& op : a.accumulate) after_all(op);
    if (b.grad_param >= 0) b.grad_param = int(made.size()) - 1;
  }

  BackwardOps loss_backward(const Op& loss) const {
    const auto& st = std::get<StreamOp>(loss.shape);
    const double logits = st.bytes_read, per_token = st.bytes_written / 2;  // lse kept per token
    const double elements = logits / bytes_per_element(run_.dtypes.act);
    BackwardOps b;
    b.ops.push_back(Op(loss.name, loss.op_class, stream(logits + per_token, logits, kLossBackwardFlops * elements, st.rows)));
    b.grad_input = 0;
    return b;
  }

  struct Bucket {
    double elements = 0;  // gradients it holds
    std::vector<OpVertex> producers;
  };

  // FSDP2 closes its buckets per unit (backward()), the root unit's after the whole backward; the
  // others at `bucket` bytes.
  void add_to_bucket(int s, int group, OpVertex producer, double elements) {
    Bucket& b = root_unit(group) ? root_buckets_[std::size_t(s)] : buckets_[std::size_t(s)];
    b.elements += elements;
    b.producers.push_back(producer);
    if (run_.zero_impl != ZeroImpl::fsdp2 && b.elements * r_ >= run_.bucket_bytes) close_bucket(s);
  }

  // Bucket names count per stage and carry the micro-batch of the backward that filled them.
  void close_bucket(int s) { close_bucket(s, buckets_[std::size_t(s)]); }
  void close_bucket(int s, Bucket& b) {
    if (b.producers.empty()) return;
    CollectiveKind kind = run_.zero >= 2 ? CollectiveKind::reduce_scatter : CollectiveKind::all_reduce;
    const std::string p = g_[b.producers.front()].name.rfind("mb", 0) == 0
                              ? g_[b.producers.front()].name.substr(0, g_[b.producers.front()].name.find('.') + 1)
                              : "";
    const std::string name = fmt::format("{}grad.bucket{}", p, bucket_index_[std::size_t(s)]++);
    // DDP divides by the world size itself; FSDP2 leaves the average to NCCL.
    const bool divides = run_.zero_impl != ZeroImpl::fsdp2;
    OpVertex in = emit(bucket_copy_in(name + ".copy_in", b.elements, w_, r_, divides), s, b.producers);
    Op op(name + "." + std::string(collective_name(kind)), "collective", grad_collective(kind, b.elements * r_));
    bucket_vertices_[std::size_t(s)].push_back(emit(std::move(op), s, {in}));
    if (kind == CollectiveKind::all_reduce) reduced_elements_[s] += b.elements;
    b = {};
  }

  void optimizer(int s) {
    double params = 0;
    for (const FwdNode& n : nodes_)
      if (n.op.stage == s) params += n.owned;
    const double dp = double(run_.parallel.dp);
    const double updated = run_.zero >= 1 ? params / dp : params;
    const bool fp32 = run_.dtypes.weights == DType::fp32;
    // master (or the fp32 weight) 4, gradient w, m 4, v 4 read; master 4, m 4, v 4 (+ 16-bit copy) written.
    const double read = 4 + (run_.zero >= 2 && reduces() ? r_ : w_) + 8, written = 12 + (fp32 ? 0 : w_);
    std::vector<OpVertex> inputs = bucket_vertices_[std::size_t(s)];
    // DDP: the all-reduced buckets copied back into every .grad before the optimizer reads them.
    if (reduced_elements_[s] > 0)
      inputs = {emit(grad_copy_out("grad.copy_out", reduced_elements_[s] * r_), s, inputs)};
    inputs.insert(inputs.end(), last_producers_[std::size_t(s)].begin(), last_producers_[std::size_t(s)].end());
    OpVertex adam = emit(Op("optimizer.adam", "optimizer",
                            stream(updated * read, updated * written, kAdamFlopsPerParam * updated, 1)), s, inputs);
    if (reduces() && (run_.zero == 1 || run_.zero == 2))
      emit(Op("optimizer.all_gather", "collective", collective(CollectiveKind::all_gather, params * w_, false)), s,
           {adam});
  }

  const TrainRun& run_;
  std::vector<FwdNode> nodes_;
  double w_, r_;  // bytes per element of the weights and of the gradient reduction
  int pp_;
  std::int64_t mbs_;
  std::vector<std::vector<int>> stage_groups_;                // per stage: its groups in forward order
  std::map<std::pair<int, int>, std::vector<int>> members_;   // (stage, group) → template indices
  std::map<std::pair<int, int>, double> group_used_;          // (stage, group) → parameters it reads
  OpGraph g_;
  std::vector<std::vector<OpVertex>> fwd_;                    // per micro-batch: forward vertices
  std::vector<std::vector<std::vector<OpVertex>>> dx_;        // per micro-batch: input-gradient vertices
  std::map<int, OpVertex> gathers_;                           // the current pass's ZeRO-3 gathers
  std::map<int, OpVertex> ready_;                             // … and their copy-outs
  std::map<int, OpVertex> root_gather_, root_ready_;          // per stage: FSDP2's root unit, per step
  std::map<int, double> reduced_elements_;                    // per stage: gradients all-reduced
  std::vector<Bucket> buckets_, root_buckets_;                // per stage (root: FSDP2's root unit)
  std::vector<int> bucket_index_;
  std::vector<std::vector<OpVertex>> bucket_vertices_;        // per stage: every gradient collective
  std::vector<std::vector<OpVertex>> last_producers_;         // per stage: the last micro-batch's gradient ops
  bool last_microbatch_ = false;
  bool first_microbatch_ = true;
};

}  // namespace

OpGraph lower_train_step(const TrainRun& run) { return TrainStepBuilder(run).build(); }

double train_graph_params(const TrainRun& run, int stage) {
  double params = 0;
  for (const FwdNode& n : forward_template(run))
    if (n.op.stage == stage) params += n.owned;
  return params;
}

}  // namespace hwsim
