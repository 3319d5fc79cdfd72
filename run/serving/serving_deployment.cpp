#include "run/serving/serving_deployment.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "models/cluster/collective_engine.h"

namespace hwsim {

ServingDeployment::ServingDeployment(sc_core::sc_module_name name, const ServeSpec& spec, const Config& chip, StepCache& cache,
                             OpMemo& ops, const ServingSetup& setup)
    : sc_core::sc_module(name), spec_(spec),
      shared_{spec, seqs_, log_, cache, ops, setup.framework, setup.host_link_bandwidth, setup.host_copy_overhead,
              setup.fabric, setup.system, setup.record_distinct, setup.keep_records, {}, {}} {
  const auto& reqs = spec.requests;
  seqs_.resize(reqs.size());
  log_.requests.resize(reqs.size());
  log_.token_times.resize(reqs.size());
  source_.assign(reqs.size(), 0);
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    seqs_[i].prefill_len = reqs[i].prompt;
    ServedRequest& r = log_.requests[i];
    r.id = reqs[i].id, r.prompt = reqs[i].prompt, r.output = reqs[i].output, r.arrival = reqs[i].arrival;
    r.priority = reqs[i].priority;
    r.first_scheduled = -1;
  }
  shared_.stepped = [this](ServingEngine& e, const StepOutcome& out) { stepped(e, out); };
  shared_.all_finished = [this] { return finished(); };
  build(chip);
  if (setup.system) limit_reuse();
  SC_THREAD(dispatch);
}

// Instances on consecutive devices: the prefill instances, then the decode ones; or the replicas.
void ServingDeployment::build(const Config& chip) {
  const ServeLayout& l = spec_.layout;
  std::int64_t next_device = 0;
  auto add = [&](InstanceRole role, std::int64_t tp, const char* prefix) {
    std::vector<std::int64_t> devices(std::size_t(tp), 0);
    std::iota(devices.begin(), devices.end(), next_device);
    next_device += tp;
    int index = int(engines_.size());
    engines_.push_back(std::make_unique<ServingEngine>(fmt::format("{}{}", prefix, index).c_str(), chip, shared_,
                                                       role, index, std::move(devices)));
    return engines_.back().get();
  };
  if (l.disaggregated()) {
    for (std::int64_t i = 0; i < l.prefill; ++i) front_.push_back(add(InstanceRole::prefill, l.prefill_tp, "prefill"));
    for (std::int64_t i = 0; i < l.decode; ++i) back_.push_back(add(InstanceRole::decode, l.decode_tp, "decode"));
  } else {
    for (std::int64_t i = 0; i < l.dp; ++i) front_.push_back(add(InstanceRole::mixed, l.tp, "replica"));
  }
  inbox_.resize(engines_.size());
}

// A tp instance's step time depends on its collectives' links: it may be reused only when no other
// traffic can cross them. Disaggregated, the KV transfers use every instance's devices and links;
// replicas share links only on some systems (a PCIe host bridge).
void ServingDeployment::limit_reuse() {
  std::vector<std::set<std::int64_t>> used(engines_.size());
  for (const auto& e : engines_)
    for (std::int64_t a : e->devices())
      for (std::int64_t b : e->devices())
        if (a != b)
          for (const FlowDemand& d : shared_.fabric->route(a, b).demands) used[std::size_t(e->index())].insert(d.resource);
  for (const auto& e : engines_) {
    if (e->devices().size() < 2) continue;
    bool shared = spec_.layout.disaggregated();
    for (std::size_t o = 0; o < engines_.size() && !shared; ++o) {
      if (int(o) == e->index()) continue;
      const auto& mine = used[std::size_t(e->index())];
      shared = std::any_of(used[o].begin(), used[o].end(), [&](std::int64_t r) { return mine.count(r) > 0; });
    }
    if (shared) e->disable_reuse(), reuse_limited_ = true;
  }
}

void ServingDeployment::dispatch() {
  try {
    for (std::size_t id = 0; id < spec_.requests.size(); ++id) {
      sc_core::sc_time at = to_sc_time(spec_.requests[id].arrival);
      if (at > sc_core::sc_time_stamp()) sc_core::wait(at - sc_core::sc_time_stamp());
      ServingEngine& e = route(front_, next_front_, false);
      log_.requests[id].instance = e.index();
      e.scheduler().arrive(id, spec_.requests[id].arrival);
      e.wake();
    }
  } catch (...) {
    fail_simulation(std::current_exception());
  }
}

// Round robin, or the instance with the fewest unfinished requests (queued, running, arriving; the
// lowest index on a tie).
ServingEngine& ServingDeployment::route(const std::vector<ServingEngine*>& to, std::size_t& next, bool decode) {
  if (spec_.layout.round_robin) return *to[next++ % to.size()];
  auto load = [&](const ServingEngine* e) {
    return e->scheduler().load() + (decode ? std::int64_t(inbox_[std::size_t(e->index())].size()) : 0);
  };
  return **std::min_element(to.begin(), to.end(),
                            [&](const ServingEngine* a, const ServingEngine* b) { return load(a) < load(b); });
}

void ServingDeployment::stepped(ServingEngine& e, const StepOutcome& out) {
  finished_ += std::int64_t(out.finished.size());
  for (std::size_t id : out.handed_off) {
    ServingEngine& d = route(back_, next_back_, true);
    inbox_[std::size_t(d.index())].push_back(id);
    source_[id] = e.index();
    log_.requests[id].decode_instance = d.index();
  }
  if (!out.handed_off.empty())
    for (ServingEngine* d : back_) start_transfers(*d);
  if (e.role() == InstanceRole::decode) start_transfers(e);
  if (finished())
    for (const auto& x : engines_) x->wake();
}

// Requests handed to `decode` whose blocks it can reserve now, first come first served.
void ServingDeployment::start_transfers(ServingEngine& decode) {
  auto& box = inbox_[std::size_t(decode.index())];
  while (!box.empty() && decode.scheduler().reserve_incoming(box.front())) {
    std::size_t id = box.front();
    box.pop_front();
    log_.enter(id, RequestPhase::Kind::transfer, sim_now(), decode.index());
    ServingEngine& from = *engines_[std::size_t(source_[id])];
    sc_core::sc_spawn([this, id, &from, &decode] {
      try {
        transfer(id, from, decode);
      } catch (...) {
        fail_simulation(std::current_exception());
      }
    });
  }
}

// The request's KV (its prompt's positions, both models' with speculation) from each prefill rank
// to each decode rank holding some of the same KV heads, all pairs at once; then the prefill
// instance frees its blocks and the decode instance takes the request.
void ServingDeployment::transfer(std::size_t id, ServingEngine& from, ServingEngine& to) {
  double start = sim_now();
  const std::int64_t heads = spec_.arch.kv_heads, tp_from = std::int64_t(from.devices().size()),
                     tp_to = std::int64_t(to.devices().size());
  const double per_head = double(seqs_[id].computed) * from.scheduler().pool().bytes_per_token * double(tp_from) /
                          double(heads);
  std::vector<RankGroups> pairs;
  std::vector<CollectiveOp> ops;
  for (std::int64_t i = 0; i < tp_from; ++i)
    for (std::int64_t j = 0; j < tp_to; ++j) {
      std::int64_t lo = std::max(i * heads / tp_from, j * heads / tp_to);
      std::int64_t hi = std::min((i + 1) * heads / tp_from, (j + 1) * heads / tp_to);
      if (hi <= lo) continue;
      pairs.push_back({{from.devices()[std::size_t(i)], to.devices()[std::size_t(j)]}});
      CollectiveOp op;
      op.kind = CollectiveKind::send_recv, op.ranks = 2, op.dtype = spec_.dtypes.kv;
      op.bytes = per_head * double(hi - lo);
      ops.push_back(op);
    }
  std::size_t pending = pairs.size();
  sc_core::sc_event done;
  double bytes = 0;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    bytes += ops[k].bytes;
    sc_core::sc_spawn([&, k] {
      try {
        run_collective("kv_transfer", ops[k], pairs[k], *shared_.system, *shared_.fabric, start);
      } catch (...) {
        fail_simulation(std::current_exception());
      }
      if (--pending == 0) done.notify();
    });
  }
  sc_core::wait(done);
  log_.transfers.push_back({std::int64_t(id), from.index(), to.index(), start, sim_now() - start, bytes});
  from.scheduler().release(id);
  from.wake();
  to.scheduler().incoming_arrived(id, sim_now());
  to.wake();
}

}  // namespace hwsim
