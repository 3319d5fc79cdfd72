#include "app/system_runner.h"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <optional>

#include "models/cluster/collective_engine.h"
#include "ops/tensor_ids.h"
#include "workloads/parallel_groups.h"
#include "workloads/passes/framework_pass.h"

namespace hwsim {

struct SystemRunner::StepState {
  const OpGraph* graph = nullptr;
  StepProgram program;
  double start = 0;
  std::vector<char> done;
  std::deque<sc_core::sc_event> finished;               // per vertex
  std::vector<std::vector<WorkRecord>> records;         // per stage
  std::vector<std::vector<std::pair<double, double>>> busy;  // per stage: intervals its device worked
  std::vector<std::size_t> detached_records;            // async collectives: (stage-major) indices to fix up
  std::deque<RankLists> groups;                         // kept alive while collectives run
  int running = 0;                                      // stage and detached processes not finished
  // Per (stage, axis): the last detached collective started. The next one on the same axis waits
  // for it, as collectives on one communicator run one after another (NCCL's stream order).
  std::map<std::pair<int, int>, OpVertex> last_detached;
  sc_core::sc_event all_done;
};

SystemRunner::SystemRunner(sc_core::sc_module_name name, std::vector<Device*> stage_devices, Fabric& fabric,
                           const SystemSpec& system, const Workload& workload, std::string framework)
    : sc_core::sc_module(name), devices_(std::move(stage_devices)), fabric_(fabric), system_(system),
      workload_(workload), framework_(std::move(framework)) {
  SC_THREAD(run);
}

void SystemRunner::run() {
  try {
    for (const auto& step : workload_.steps) results_.push_back(run_step(step));
  } catch (...) {
    fail_simulation(std::current_exception());
  }
}

void SystemRunner::wait_for_inputs(StepState& st, OpVertex v, const std::vector<OpVertex>& beside) {
  for (auto [e, end] = boost::in_edges(v, *st.graph); e != end; ++e) {
    OpVertex u = boost::source(*e, *st.graph);
    if (std::find(beside.begin(), beside.end(), u) != beside.end()) continue;
    while (!st.done[u]) sc_core::wait(st.finished[u]);
  }
}

void SystemRunner::run_segment(StepState& st, int stage, const std::vector<OpVertex>& segment) {
  for (OpVertex v : segment) wait_for_inputs(st, v, segment);  // inputs inside the segment run in it
  StepProgram part = st.program;
  part.order = segment;
  double begin = sim_now();
  for (WorkRecord& r : devices_[std::size_t(stage)]->run_step(part)) {
    r.start += begin - st.start;
    r.end += begin - st.start;
    r.device = stage;
    st.records[std::size_t(stage)].push_back(std::move(r));
  }
  st.busy[std::size_t(stage)].emplace_back(begin, sim_now());
  for (OpVertex v : segment) st.done[v] = 1, st.finished[v].notify();
}

void SystemRunner::run_collective_op(StepState& st, OpVertex v, bool detached) {
  const Op& op = (*st.graph)[v];
  const auto& c = std::get<CollectiveOp>(op.shape);
  wait_for_inputs(st, v, {});
  const RankLists& groups = st.groups.emplace_back(c.kind == CollectiveKind::send_recv
                                                       ? pipeline_pairs(workload_.parallel, op.stage, c.reverse)
                                                       : axis_groups(workload_.parallel, c.axis, op.stage));
  double begin = sim_now();
  WorkRecord r = run_collective(op.name, c, groups, system_, fabric_, st.start);
  r.device = op.stage;
  auto& list = st.records[std::size_t(op.stage)];
  if (detached) st.detached_records.push_back(std::size_t(op.stage) << 32 | list.size());
  else st.busy[std::size_t(op.stage)].emplace_back(begin, sim_now());
  list.push_back(std::move(r));
  st.done[v] = 1;
  st.finished[v].notify();
}

namespace {
bool waits_outside(const OpGraph& g, OpVertex v, int stage) {
  for (auto [e, end] = boost::in_edges(v, g); e != end; ++e) {
    const Op& u = g[boost::source(*e, g)];
    if (is_collective(u) || u.stage != stage) return true;
  }
  return false;
}

bool runs_detached(const Op& op) {
  const auto& c = std::get<CollectiveOp>(op.shape);
  return c.async || c.kind == CollectiveKind::send_recv;
}

// Seconds of [a, b) covered by the (disjoint) intervals.
double covered(const std::vector<std::pair<double, double>>& busy, double a, double b) {
  double sum = 0;
  for (const auto& [x, y] : busy) sum += std::max(0.0, std::min(b, y) - std::max(a, x));
  return sum;
}
}  // namespace

void SystemRunner::run_stage(StepState& st, int stage) {
  std::vector<OpVertex> ops;
  for (OpVertex v : st.program.order)
    if ((*st.graph)[v].stage == stage) ops.push_back(v);
  for (std::size_t i = 0; i < ops.size();) {
    const Op& op = (*st.graph)[ops[i]];
    if (is_collective(op)) {
      OpVertex v = ops[i++];
      if (!runs_detached(op)) { run_collective_op(st, v, false); continue; }
      ++st.running;
      auto key = std::make_pair(stage, int(std::get<CollectiveOp>(op.shape).axis));
      auto previous = st.last_detached.find(key);
      std::optional<OpVertex> after;
      if (previous != st.last_detached.end()) after = previous->second;
      st.last_detached[key] = v;
      sc_core::sc_spawn([this, &st, v, after] {
        try {
          if (after) while (!st.done[*after]) sc_core::wait(st.finished[*after]);
          run_collective_op(st, v, true);
        } catch (...) { fail_simulation(std::current_exception()); }
        if (--st.running == 0) st.all_done.notify();
      });
      continue;
    }
    std::vector<OpVertex> segment{ops[i++]};
    while (i < ops.size() && !is_collective((*st.graph)[ops[i]]) && !waits_outside(*st.graph, ops[i], stage))
      segment.push_back(ops[i++]);
    run_segment(st, stage, segment);
  }
}

StepResult SystemRunner::run_step(const WorkloadStep& step) {
  std::unique_ptr<OpGraph> lowered;  // a step lowered just in time: its graph lives for this step only
  const OpGraph& original = step_graph(step, lowered);
  std::optional<OpGraph> rewritten = FrameworkPasses::get(framework_).apply(original);
  StepState st;
  st.graph = rewritten ? &*rewritten : &original;
  st.program.graph = st.graph;
  st.program.order = execution_order(*st.graph);
  st.program.tensors = tensor_ids(*st.graph);
  st.start = sim_now();
  std::size_t vertices = boost::num_vertices(*st.graph), stages = devices_.size();
  st.done.assign(vertices, 0);
  st.finished.resize(vertices);
  st.records.resize(stages);
  st.busy.resize(stages);
  st.running = int(stages);
  for (std::size_t s = 0; s < stages; ++s)
    sc_core::sc_spawn([this, &st, s] {
      try { run_stage(st, int(s)); } catch (...) { fail_simulation(std::current_exception()); }
      if (--st.running == 0) st.all_done.notify();
    });
  while (st.running > 0) sc_core::wait(st.all_done);
  for (std::size_t key : st.detached_records) {
    WorkRecord& r = st.records[key >> 32][key & 0xffffffffu];
    double a = st.start + r.start, b = st.start + r.end;
    r.hidden = covered(st.busy[key >> 32], a, b);
    double exposed = (b - a) - r.hidden;
    r.breakdown.overhead = std::min(r.breakdown.overhead, exposed);
    r.breakdown.communication = exposed - r.breakdown.overhead;
    r.details[7] = r.hidden;  // collective_schema(): "overlapped"
  }
  StepResult result;
  result.label = step.label;
  for (auto& list : st.records)
    for (auto& r : list) result.records.push_back(std::move(r));
  std::stable_sort(result.records.begin(), result.records.end(),
                   [](const WorkRecord& a, const WorkRecord& b) { return a.start < b.start; });
  result.seconds = sim_now() - st.start;
  return result;
}

}  // namespace hwsim
