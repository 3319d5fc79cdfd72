// elementwise:op=add|rmsnorm|layernorm|silu_mul|copy|fill|read_sum,T=..,D=..,dtype=..
// One memory-bound kernel over a [T, D] tensor, as the framework kernels of the measurement
// kinds of the same names do (shared/calibration/README.md, data/measurements/README.md).
#include <fmt/format.h>

#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "app/validate/measurement.h"
#include "workloads/workload.h"

namespace hwsim {
namespace {

struct Pass {
  double reads;    // tensors of [T, D] read
  double writes;   // tensors of [T, D] written
  double flops;    // per element
  const char* op_class;
};

const std::map<std::string, Pass>& passes() {
  static const std::map<std::string, Pass> table = {
      {"add", {2, 1, 1, "elementwise"}},      {"silu_mul", {2, 1, 6, "elementwise"}},
      {"rmsnorm", {1, 1, 4, "norm"}},         {"layernorm", {1, 1, 6, "norm"}},
      {"copy", {1, 1, 0, "elementwise"}},     {"fill", {0, 1, 0, "elementwise"}},
      {"read_sum", {1, 0, 1, "elementwise"}},
  };
  return table;
}

Workload build_elementwise(const WorkloadSpec& spec) {
  std::string name = spec.word("op", "add");
  auto it = passes().find(name);
  if (it == passes().end()) {
    std::vector<std::string> valid;
    for (const auto& [n, p] : passes()) valid.push_back(n);
    workload_error(fmt::format("workload '{}': op: unknown '{}'{}; valid: {}", spec.text(), name,
                               did_you_mean(name, valid), join(valid)));
  }
  std::int64_t rows = spec.positive_int("T", 1);
  std::int64_t cols = spec.positive_int("D");
  DType dtype = spec.dtype("dtype", DType::bf16);
  // Each repeat is one more kernel to simulate and no more memory: bounded so a run ends.
  constexpr std::int64_t kMaxRepeat = 10000;
  std::int64_t repeat = spec.positive_int("repeat", 1, kMaxRepeat);
  spec.reject_unused({"op", "T", "D", "dtype", "repeat"});
  double tensor = double(rows) * double(cols) * bytes_per_element(dtype);
  StreamOp s;
  s.bytes_read = it->second.reads * tensor + (it->second.op_class == std::string("norm") ? cols * bytes_per_element(dtype) : 0);
  s.bytes_written = it->second.writes * tensor;
  s.flops = it->second.flops * double(rows) * double(cols);
  s.rows = rows;
  Workload w;
  w.steps.push_back(WorkloadStep{name, {}});
  // `repeat` calls on one buffer set, as a benchmark loop runs them: later calls find in L2
  // whatever of the input and output still fits there.
  for (std::int64_t r = 0; r < repeat; ++r) {
    Op op{repeat > 1 ? name + "#" + std::to_string(r) : name, it->second.op_class, s, "in", "out"};
    add_op(w.steps.back().graph, op);
  }
  return w;
}

HWSIM_REGISTER_WORKLOAD("elementwise",
                        "one memory-bound kernel on a [T,D] tensor: op=add|rmsnorm|layernorm|silu_mul|copy|fill|read_sum, "
                        "T=1, D, dtype=bf16, repeat=1 (calls on one buffer set)",
                        build_elementwise);

double last_kernel_seconds(const nlohmann::json& document) {
  return document["result"]["steps"][0]["kernels"].back()["seconds"].get<double>();
}

// Measurement kinds over [T, D] tensors.
std::optional<PredictionPlan> rows_plan(const Measurement& m) {
  auto T = record_whole(m, "T"), D = record_whole(m, "D");
  if (!T || !D) return std::nullopt;
  std::string dtype = record_text(m, "dtype").value_or("bf16");
  // The records time repeated calls on one buffer set: predict the third of three calls.
  return PredictionPlan{fmt::format("elementwise:op={},T={},D={},dtype={},repeat=3", m.kind, *T, *D,
                                    dtype == "bfloat16" ? "bf16" : dtype),
                        last_kernel_seconds};
}

// Memory kinds over a flat buffer of `bytes_each` bytes (shared/calibration: copy, read_sum_fp32,
// fill_fp32), also timed as repeated calls on one buffer set.
std::optional<PredictionPlan> buffer_plan(const Measurement& m, const char* op) {
  auto bytes_each = record_whole(m, "bytes_each");
  if (!bytes_each) return std::nullopt;
  return PredictionPlan{fmt::format("elementwise:op={},T=1,D={},dtype=int8,repeat=3", op, *bytes_each),
                        last_kernel_seconds};
}

HWSIM_REGISTER_MEASUREMENT("copy", [](const Measurement& m) { return buffer_plan(m, "copy"); });
HWSIM_REGISTER_MEASUREMENT("read_sum_fp32", [](const Measurement& m) { return buffer_plan(m, "read_sum"); });
HWSIM_REGISTER_MEASUREMENT("fill_fp32", [](const Measurement& m) { return buffer_plan(m, "fill"); });
HWSIM_REGISTER_MEASUREMENT("add", rows_plan);
HWSIM_REGISTER_MEASUREMENT("rmsnorm", rows_plan);
HWSIM_REGISTER_MEASUREMENT("layernorm", rows_plan);

}  // namespace
}  // namespace hwsim
