#pragma once
// The `train` workload's entry points for the runner and the metrics (train_workloads.cpp):
// facts and the capacity advice, from a parsed run or from a built Workload.
#include <optional>
#include <string>

#include "ops/op_graph.h"
#include "workloads/llm/train_facts.h"
#include "workloads/llm/train_run.h"
#include "workloads/workload.h"

namespace hwsim {

// Facts of a parsed run; hardware_flops from `step_graph` when given (its ops' FLOPs × tp · dp).
TrainFacts make_train_facts(const TrainRun& run, const OpGraph* step_graph = nullptr);

// For a workload built by `train` or a train preset (Workload::kind): its run re-parsed from
// Workload::spec with the preset's defaults, its facts (hardware FLOPs from its first step's
// graph), and the capacity advice line (train_memory.h). nullopt / "" for any other workload.
// Until Workload carries the facts itself, this is how the runner gets them.
std::optional<TrainRun> train_run_of(const Workload& workload);
std::optional<TrainFacts> train_facts(const Workload& workload);
std::string train_fit_advice(const Workload& workload, double capacity_bytes);

}  // namespace hwsim
