#include "run/step_executor.h"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <stdexcept>

#include "models/cluster/collective_engine.h"
#include "sim/engine/systemc.h"

namespace hwsim {

struct StepExecutor::State {
  const StepProgram* program = nullptr;
  const OpGraph* graph = nullptr;
  double start = 0;
  std::vector<char> done;
  std::deque<sc_core::sc_event> finished;                     // per vertex
  std::vector<std::vector<WorkRecord>> records;               // per stage
  std::vector<std::vector<std::pair<double, double>>> busy;   // per stage: intervals its device worked
  std::vector<std::pair<std::size_t, std::size_t>> detached;  // async collectives: (stage, index)
  std::deque<RankGroups> groups;                              // kept alive while collectives run
  int running = 0;                                            // stage and detached processes not finished
  // Per (stage, axis): the last detached collective started. The next one on the same axis waits
  // for it, as collectives on one communicator run one after another (NCCL's stream order).
  std::map<std::pair<int, int>, OpVertex> last_detached;
  sc_core::sc_event all_done;
};

StepExecutor::StepExecutor(std::vector<Device*> stage_devices, StepLinks links)
    : devices_(std::move(stage_devices)), links_(std::move(links)) {}

void StepExecutor::wait_for_inputs(State& st, OpVertex v, const std::vector<OpVertex>& beside) {
  for (auto [e, end] = boost::in_edges(v, *st.graph); e != end; ++e) {
    OpVertex u = boost::source(*e, *st.graph);
    if (std::find(beside.begin(), beside.end(), u) != beside.end()) continue;
    while (!st.done[u]) sc_core::wait(st.finished[u]);
  }
}

void StepExecutor::run_segment(State& st, int stage, const std::vector<OpVertex>& segment) {
  for (OpVertex v : segment) wait_for_inputs(st, v, segment);  // inputs inside the segment run in it
  StepProgram part = *st.program;
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

void StepExecutor::run_collective_op(State& st, OpVertex v, bool detached) {
  const Op& op = (*st.graph)[v];
  if (!links_.fabric) throw std::logic_error("collective '" + op.name + "' in a run without links");
  wait_for_inputs(st, v, {});
  const RankGroups& groups = st.groups.emplace_back(links_.groups(op));
  double begin = sim_now();
  WorkRecord r = run_collective(op.name, std::get<CollectiveOp>(op.shape), groups, *links_.system, *links_.fabric,
                                st.start);
  r.device = op.stage;
  auto& list = st.records[std::size_t(op.stage)];
  if (detached) st.detached.emplace_back(std::size_t(op.stage), list.size());
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

// An asynchronous collective or pipeline send runs on its own process, after the last one started
// on its stage and axis.
void StepExecutor::spawn_detached(State& st, int stage, OpVertex v) {
  ++st.running;
  auto key = std::make_pair(stage, int(std::get<CollectiveOp>((*st.graph)[v].shape).axis));
  auto previous = st.last_detached.find(key);
  std::optional<OpVertex> after;
  if (previous != st.last_detached.end()) after = previous->second;
  st.last_detached[key] = v;
  sc_core::sc_spawn([this, &st, v, after] {
    try {
      if (after)
        while (!st.done[*after]) sc_core::wait(st.finished[*after]);
      run_collective_op(st, v, true);
    } catch (...) {
      fail_simulation(std::current_exception());
    }
    if (--st.running == 0) st.all_done.notify();
  });
}

void StepExecutor::run_stage(State& st, int stage) {
  std::vector<OpVertex> ops;
  for (OpVertex v : st.program->order)
    if ((*st.graph)[v].stage == stage) ops.push_back(v);
  for (std::size_t i = 0; i < ops.size();) {
    const Op& op = (*st.graph)[ops[i]];
    if (is_collective(op)) {
      OpVertex v = ops[i++];
      if (runs_detached(op)) spawn_detached(st, stage, v);
      else run_collective_op(st, v, false);
      continue;
    }
    std::vector<OpVertex> segment{ops[i++]};
    while (i < ops.size() && !is_collective((*st.graph)[ops[i]]) && !waits_outside(*st.graph, ops[i], stage))
      segment.push_back(ops[i++]);
    run_segment(st, stage, segment);
  }
}

// What of each detached collective its stage's device worked through: hidden, not in its breakdown.
void StepExecutor::settle_detached(State& st) {
  for (auto [stage, index] : st.detached) {
    WorkRecord& r = st.records[stage][index];
    double a = st.start + r.start, b = st.start + r.end;
    r.hidden = covered(st.busy[stage], a, b);
    double exposed = (b - a) - r.hidden;
    r.breakdown.overhead = std::min(r.breakdown.overhead, exposed);
    r.breakdown.communication = exposed - r.breakdown.overhead;
    r.set_detail("overlapped", r.hidden);
  }
}

StepResult StepExecutor::run(const StepProgram& program) {
  State st;
  st.program = &program;
  st.graph = program.graph;
  st.start = sim_now();
  std::size_t vertices = boost::num_vertices(*st.graph), stages = devices_.size();
  st.done.assign(vertices, 1);  // an op outside the program's order is not run: its outputs are given
  for (OpVertex v : program.order) st.done[v] = 0;
  st.finished.resize(vertices);
  st.records.resize(stages);
  st.busy.resize(stages);
  if (stages == 1) {
    run_stage(st, 0);
  } else {
    st.running = int(stages);
    for (std::size_t s = 0; s < stages; ++s)
      sc_core::sc_spawn([this, &st, s] {
        try {
          run_stage(st, int(s));
        } catch (...) {
          fail_simulation(std::current_exception());
        }
        if (--st.running == 0) st.all_done.notify();
      });
  }
  while (st.running > 0) sc_core::wait(st.all_done);
  settle_detached(st);
  StepResult result;
  for (auto& list : st.records)
    for (auto& r : list) result.records.push_back(std::move(r));
  std::stable_sort(result.records.begin(), result.records.end(),
                   [](const WorkRecord& a, const WorkRecord& b) { return a.start < b.start; });
  result.seconds = sim_now() - st.start;
  return result;
}

}  // namespace hwsim
