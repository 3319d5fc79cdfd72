#pragma once
// Runs a collective on the system's links, in the calling SystemC thread (it waits): plans it
// (collective_plan.h), waits the launch and base latency, then runs each round — its latency, then
// its transfers as flows on the Fabric — and returns one WorkRecord (unit: a collective).
#include <memory>
#include <string>

#include "models/cluster/collective_plan.h"
#include "models/cluster/fabric.h"
#include "sim/result.h"

namespace hwsim {

// Names of a collective record's details (no memory levels): bytes (the nccl-tests size), ranks
// per group, groups, algbw and busbw (bytes/s), link_bytes (over every hop, all groups),
// rounds, overlapped (seconds of it hidden behind compute; set by the runner).
const std::shared_ptr<const RecordSchema>& collective_schema();

// `groups` must outlive the call. start/end of the record are seconds from `step_start`.
WorkRecord run_collective(const std::string& name, const CollectiveOp& op, const RankGroups& groups,
                          const SystemSpec& system, Fabric& fabric, double step_start);

}  // namespace hwsim
