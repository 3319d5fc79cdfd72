// The "tile" GPU core model: lowers each op to a kernel of CTA tiles and simulates the kernels on
// a TileMachine, one step after another.
#include <fmt/format.h>
#include <map>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/i_gpu_core.h"
#include "models/gpu/tile/attention_lowering.h"
#include "models/gpu/tile/gemm_lowering.h"
#include "models/gpu/tile/stream_lowering.h"
#include "models/gpu/tile/tile_machine.h"
#include "sim/error.h"
#include "sim/registry.h"

namespace hwsim {
namespace {

class TileCoreModel : public GpuCoreModel {
 public:
  explicit TileCoreModel(const Config& config) : chip_(GpuChip::from_config(config)) {}

  RunResult run(const Workload& workload) override {
    init_systemc();
    StepSource source;
    for (const auto& step : workload.steps) source.labels.push_back(step.label);
    source.lower = [this, &workload](std::size_t i) { return lower_step(workload.steps[i]); };
    // All steps run back to back on one GPU, as a serving loop does: what one step leaves in L2
    // is there for the next.
    TileMachine machine("gpu", chip_, std::move(source));
    sc_core::sc_start();
    machine.rethrow_failure();
    RunResult result;
    result.level = "tile";
    result.steps = machine.results();
    result.tdp = chip_.tdp_watts;
    finalize(result);
    return result;
  }

 private:
  std::vector<Kernel> lower_step(const WorkloadStep& step) const {
    std::vector<Kernel> kernels;
    std::int64_t object_base = std::int64_t(1) << 40;
    std::vector<TensorIds> tensors = tensor_ids(step.graph);
    for (OpVertex v : execution_order(step.graph)) {
      const Op& op = step.graph[v];
      const TensorIds& ids = tensors[v];
      if (const auto* g = std::get_if<GemmOp>(&op.shape)) {
        require_fp8_support(op.name, "weights", g->b);
        DType math = gemm_math_dtype(*g);
        if (!chip_.supports(math))
          workload_error(fmt::format("{}: {} math is not supported by {} (its gpu.sm.flops_per_clock.{} is 0)",
                                     op.name, dtype_name(math), chip_.name, dtype_name(math)));
        kernels.push_back(lower_gemm(*g, op.name, choose_gemm_tiling(*g, chip_), chip_, object_base, ids));
      } else if (const auto* st = std::get_if<StreamOp>(&op.shape)) {
        kernels.push_back(lower_stream(*st, op.name, op.op_class, chip_, ids, object_base));
      } else if (const auto* at = std::get_if<AttentionOp>(&op.shape)) {
        require_fp8_support(op.name, "KV cache", at->kv_dtype);
        if (!chip_.supports(at->dtype))
          workload_error(fmt::format("{}: {} attention math is not supported by {}", op.name, dtype_name(at->dtype),
                                     chip_.name));
        for (auto& k : lower_attention(*at, op.name, chip_, object_base, ids)) kernels.push_back(std::move(k));
      }
      object_base += std::int64_t(1) << 40;
    }
    return kernels;
  }

  // FP8 storage needs the chip's FP8 conversion (Hopper and later); a chip without FP8 math
  // (gpu.sm.flops_per_clock.fp8 = 0, e.g. A100) cannot hold fp8 weights or KV cache.
  void require_fp8_support(const std::string& op, const char* what, DType stored) const {
    if (stored == DType::fp8 && !chip_.supports(DType::fp8))
      workload_error(fmt::format("{}: fp8 {} is not supported by {} (no FP8 units: gpu.sm.flops_per_clock.fp8 is 0); "
                                 "use bf16, fp16, int8 or int4", op, what, chip_.name));
  }

  // Tensor ids per op: named tensors share an id; unnamed outputs get their own; an unnamed input
  // is the first predecessor's output. Ids beyond kMaxTensors lose their identity (streamed).
  static std::vector<TensorIds> tensor_ids(const OpGraph& graph) {
    constexpr std::int64_t kMaxTensors = std::int64_t(1) << 15;
    std::map<std::string, std::int64_t> named;
    auto id_of = [&](const std::string& name) {
      auto [it, inserted] = named.emplace(name, std::int64_t(named.size()));
      return it->second < kMaxTensors ? it->second : -1;
    };
    std::vector<TensorIds> ids(boost::num_vertices(graph));
    for (OpVertex v : execution_order(graph)) {
      const Op& op = graph[v];
      ids[v].output = id_of(op.output_tensor.empty() ? fmt::format("#{}", v) : op.output_tensor);
      if (!op.input_tensor.empty()) {
        ids[v].input = id_of(op.input_tensor);
      } else if (boost::in_degree(v, graph) > 0) {
        ids[v].input = ids[boost::source(*boost::in_edges(v, graph).first, graph)].output;
      }
    }
    return ids;
  }

  GpuChip chip_;
};

HWSIM_REGISTER(GpuCoreModel, TileCoreModel, "tile",
               "CTA tiles dispatched in waves; L2/HBM as shared bandwidth servers (default)");

}  // namespace
}  // namespace hwsim
