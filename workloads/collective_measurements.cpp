// Measurement records of collectives (kind "collective": shared/calibration and
// data/measurements/h200x2_collectives.jsonl) as collective workloads on a --system.
// `bytes` is the nccl-tests size, `n` the ranks; `algo`/`proto` when the run forced them (NCCL_ALGO,
// NCCL_PROTO). Timings: CUDA graphs (`timing: graph`) or nccl-tests' own loop (`nccl-tests`, the
// published tables of data/public). Not modelled, so skipped: Python-loop timings (`timing: loop`: host-bound below a
// few MiB), torch's list-form all_gather (an extra copy outside NCCL), and chains of calls.
#include <fmt/format.h>

#include "sim/measurement/measurement.h"

namespace hwsim {
namespace {

std::string text(const Measurement& m, const char* key, const std::string& fallback) {
  return record_text(m, key).value_or(fallback);
}

std::optional<PredictionPlan> collective_plan(const Measurement& m) {
  auto record_bytes = record_whole(m, "bytes"), n = record_whole(m, "n");
  if (!record_bytes || !n) return std::nullopt;
  const Measurement& r = m;
  std::string timing = text(r, "timing", "graph");
  if ((timing != "graph" && timing != "nccl-tests") || text(r, "api", "") == "all_gather(list)") return std::nullopt;
  std::string op = text(r, "op", "");
  double bytes = double(*record_bytes);
  if (op == "sendrecv_0to1") op = "send_recv";
  else if (op == "sendrecv_bidir") op = "all_to_all", bytes *= 2;  // both send `bytes`: an all_to_all of 2·bytes
  if (op != "all_reduce" && op != "all_gather" && op != "reduce_scatter" && op != "all_to_all" &&
      op != "broadcast" && op != "send_recv")
    return std::nullopt;
  std::string algo = text(r, "algo", "default"), proto = text(r, "proto", "default");
  algo = algo == "Ring" ? "ring" : algo == "Tree" ? "tree" : algo == "NVLS" ? "nvls" : "auto";
  if (proto == "default") proto = "auto";
  PredictionPlan plan(fmt::format("collective:op={},bytes={:.0f}B,ranks={},algo={},proto={},dtype={}", op, bytes,
                                  *n, algo, proto, text(r, "dtype", "fp32")));
  plan.needs_system = true;
  return plan;
}

HWSIM_REGISTER_MEASUREMENT("collective", "an NCCL collective among ranks of a --system (nccl-tests conventions)", collective_plan);

}  // namespace
}  // namespace hwsim
