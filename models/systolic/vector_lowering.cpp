#include "models/systolic/vector_lowering.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "models/systolic/pipeline_estimate.h"

namespace hwsim {
namespace {

constexpr double kVregElementBytes = 4;  // the VPU computes in f32: one (sublanes × lanes) tile of f32

Phase build(const VectorWork& w, std::int64_t chunks, const SystolicChip& c) {
  Phase ph;
  ph.steps = split_over_cores(chunks, c.tensorcores, 1);
  PipelineStep& s = ph.step;
  s.load_bytes = w.bytes_read / double(chunks);
  s.store_bytes = w.bytes_written / double(chunks);
  s.vpu_seconds = w.ops / double(chunks) / c.vpu_rate();
  // Every byte crosses the VMEM port twice: the DMA writes it, the vector unit reads it (and the
  // reverse for results).
  s.vmem_bytes = 2 * (s.load_bytes + s.store_bytes);
  s.vmem_seconds = s.vmem_bytes / c.vmem_bandwidth;
  ph.vector_ops = w.ops;
  return ph;
}

}  // namespace

std::optional<Phase> vector_phase(const VectorWork& w, const SystolicChip& c, std::string name) {
  double bytes = w.bytes_read + w.bytes_written;
  double min_chunk = double(c.vpu_lanes) * c.vpu_sublanes * kVregElementBytes;
  std::int64_t most = std::max<std::int64_t>(1, std::int64_t(bytes / min_chunk));
  std::optional<Phase> best;
  double best_time = 0;
  for (std::int64_t chunks = 1; chunks <= most; chunks *= 2) {
    if (2 * bytes / double(chunks) > c.vmem_bytes) continue;
    Phase ph = build(w, chunks, c);
    double t = estimate_phase(ph, c);
    if (!best || t < best_time) best = std::move(ph), best_time = t;
  }
  if (!best) return std::nullopt;
  best->name = std::move(name);
  best->config = fmt::format("{} chunks {}", best->name, best->total_steps());
  return best;
}

}  // namespace hwsim
