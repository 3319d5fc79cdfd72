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
  std::vector<int> segment_of;  // per vertex: 1 + the stage whose segment holds it, while it runs; 0 else
  // Per vertex waited on: made when a process first waits (most ops' inputs are done by then, and
  // a step of hundreds of ops need not build an event each).
  std::map<OpVertex, sc_core::sc_event> finished;
  std::vector<std::vector<WorkRecord>> records;               // per stage
  std::vector<std::vector<std::pair<double, double>>> busy;   // per stage: intervals its device worked
  std::vector<std::pair<std::size_t, std::size_t>> detached;  // async collectives: (stage, index)
  // Per stage: when each detached collective ran (end < 0 while it runs), for the compute share.
  std::vector<std::vector<std::pair<double, double>>> comm_active;
  std::deque<RankGroups> groups;                              // kept alive while collectives run
  int running = 0;                                            // stage and detached processes not finished
  // Per (stage, axis): the last detached collective started. The next one on the same axis waits
  // for it, as collectives on one communicator run one after another (NCCL's stream order).
  std::map<std::pair<int, int>, OpVertex> last_detached;
  sc_core::sc_event all_done;

  // `v` has finished: whoever waits on it goes on.
  void finish(OpVertex v) {
    done[v] = 1;
    if (auto it = finished.find(v); it != finished.end()) it->second.notify();
  }
};

StepExecutor::StepExecutor(std::vector<Device*> stage_devices, StepLinks links)
    : devices_(std::move(stage_devices)), links_(std::move(links)) {}

void StepExecutor::wait_for_inputs(State& st, OpVertex v, int segment_of) {
  for (auto [e, end] = boost::in_edges(v, *st.graph); e != end; ++e) {
    OpVertex u = boost::source(*e, *st.graph);
    if (segment_of > 0 && st.segment_of[u] == segment_of) continue;  // runs in the same segment, before v
    while (!st.done[u]) sc_core::wait(st.finished[u]);
  }
}

void StepExecutor::run_segment(State& st, int stage, const std::vector<OpVertex>& segment) {
  for (OpVertex v : segment) st.segment_of[v] = stage + 1;
  for (OpVertex v : segment) wait_for_inputs(st, v, stage + 1);  // inputs inside the segment run in it
  // The whole program as one segment (one device, no collective) runs as it is, uncopied.
  std::optional<StepProgram> part;
  if (segment != st.program->order) part.emplace(StepProgram{st.program->graph, segment, st.program->tensors});
  double begin = sim_now();
  std::vector<WorkRecord> records = devices_[std::size_t(stage)]->run_step(part ? *part : *st.program);
  share_with_collectives(st, stage, begin, records);
  for (WorkRecord& r : records) {
    r.start += begin - st.start;
    r.end += begin - st.start;
    r.device = stage;
  }
  auto& list = st.records[std::size_t(stage)];
  if (list.empty()) list = std::move(records);  // the stage's first segment: no copy
  else list.insert(list.end(), std::make_move_iterator(records.begin()), std::make_move_iterator(records.end()));
  st.busy[std::size_t(stage)].emplace_back(begin, sim_now());
  for (OpVertex v : segment) st.segment_of[v] = 0, st.finish(v);
}

namespace {
// Adds `joules` the device draws at rest to a record's energy, in its "static" part where it has
// parts (they must sum to the energy: a record whose parts name none keeps its energy).
void charge_static(WorkRecord& r, double joules) {
  if (joules <= 0) return;
  if (!r.energy_parts.empty()) {
    if (!r.schema) return;
    const auto& names = r.schema->energy_parts;
    auto it = std::find(names.begin(), names.end(), "static");
    if (it == names.end()) return;
    r.energy_parts[std::size_t(it - names.begin())] += joules;
  }
  r.energy += joules;
}
}  // namespace

// Device work that overlapped detached collectives of its stage ran on the compute units they left
// (collective.compute_share): the segment ends later by share / (1 − share) of the overlap, its
// records stretched evenly, the extra counted as overhead and charged the device's idle power.
void StepExecutor::share_with_collectives(State& st, int stage, double begin, std::vector<WorkRecord>& records) {
  const double share = links_.system ? links_.system->tuning.compute_share : 0;
  const double end = sim_now(), seconds = end - begin;
  if (share <= 0 || seconds <= 0 || st.comm_active.empty()) return;
  double overlap = 0;
  for (const auto& [a, b] : st.comm_active[std::size_t(stage)])
    overlap += std::max(0.0, std::min(end, b < 0 ? end : b) - std::max(begin, a));
  if (overlap <= 0) return;
  const double extra = std::min(overlap, seconds) * share / (1 - share), stretch = (seconds + extra) / seconds;
  sc_core::wait(to_sc_time(extra));
  const double idle = devices_[std::size_t(stage)]->info().idle_power;
  for (WorkRecord& r : records) {
    const double before = r.end - r.start;
    r.start *= stretch, r.end *= stretch;
    r.breakdown.overhead += (r.end - r.start) - before;
    charge_static(r, idle * ((r.end - r.start) - before));
  }
}

void StepExecutor::run_collective_op(State& st, OpVertex v, bool detached) {
  const Op& op = (*st.graph)[v];
  if (!links_.fabric) throw std::logic_error("collective '" + op.name + "' in a run without links");
  wait_for_inputs(st, v, 0);
  const RankGroups& groups = st.groups.emplace_back(links_.groups(op));
  double begin = sim_now();
  auto& active = st.comm_active[std::size_t(op.stage)];
  const std::size_t slot = active.size();
  if (detached) active.emplace_back(begin, -1.0);
  WorkRecord r = run_collective(op.name, std::get<CollectiveOp>(op.shape), groups, *links_.system, *links_.fabric,
                                st.start);
  if (detached) active[slot].second = sim_now();
  r.device = op.stage;
  auto& list = st.records[std::size_t(op.stage)];
  if (detached) st.detached.emplace_back(std::size_t(op.stage), list.size());
  else st.busy[std::size_t(op.stage)].emplace_back(begin, sim_now());
  list.push_back(std::move(r));
  st.finish(v);
}

void StepExecutor::run_recorded_op(State& st, OpVertex v) {
  const Op& op = (*st.graph)[v];
  wait_for_inputs(st, v, 0);
  double begin = sim_now(), seconds = std::get<RecordedOp>(op.shape).seconds;
  if (seconds > 0) sc_core::wait(to_sc_time(seconds));
  WorkRecord r;
  r.name = op.name;
  r.op_class = kRecordedClass;
  r.config = "recorded time, replayed";
  r.device = op.stage;
  r.start = begin - st.start;
  r.end = sim_now() - st.start;
  r.breakdown.compute = r.end - r.start;
  static const auto schema = std::make_shared<const RecordSchema>(RecordSchema{{}, {}, {}});  // prices nothing
  r.schema = schema;
  st.busy[std::size_t(op.stage)].emplace_back(begin, sim_now());
  st.records[std::size_t(op.stage)].push_back(std::move(r));
  st.finish(v);
}

namespace {
bool waits_outside(const OpGraph& g, OpVertex v, int stage) {
  for (auto [e, end] = boost::in_edges(v, g); e != end; ++e) {
    const Op& u = g[boost::source(*e, g)];
    if (is_collective(u) || is_recorded(u) || u.stage != stage) return true;
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
    if (is_recorded(op)) {
      run_recorded_op(st, ops[i++]);
      continue;
    }
    std::vector<OpVertex> segment{ops[i++]};
    while (i < ops.size() && !is_collective((*st.graph)[ops[i]]) && !is_recorded((*st.graph)[ops[i]]) &&
           !waits_outside(*st.graph, ops[i], stage))
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
  st.segment_of.assign(vertices, 0);
  for (OpVertex v : program.order) st.done[v] = 0;
  st.records.resize(stages);
  st.busy.resize(stages);
  st.comm_active.resize(stages);
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
  if (st.records.size() == 1) {
    result.records = std::move(st.records.front());
  } else {
    for (auto& list : st.records)
      for (auto& r : list) result.records.push_back(std::move(r));
  }
  auto earlier = [](const WorkRecord& a, const WorkRecord& b) { return a.start < b.start; };
  if (!std::is_sorted(result.records.begin(), result.records.end(), earlier))  // one device's are in order
    std::stable_sort(result.records.begin(), result.records.end(), earlier);
  result.seconds = sim_now() - st.start;
  return result;
}

}  // namespace hwsim
