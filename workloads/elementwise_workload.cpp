// elementwise:op=add|rmsnorm|layernorm|silu_mul|copy|fill|read_sum|softmax|gelu|transpose,T=..,D=..,dtype=..
// One memory-bound op over a [T, D] tensor, as the framework kernels of the measurement kinds of
// the same names do (shared/calibration/README.md, data/measurements/README.md); softmax also as
// the five torch ops it is made of (impl=unfused).
#include <fmt/format.h>

#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "sim/measurement/measurement.h"
#include "workloads/workload.h"

namespace hwsim {
namespace {

// One kernel of an op: [T, D] tensors read and written, per-row vectors ([T, 1]: a row's max or
// sum) read and written, vector FLOPs per element.
struct Pass {
  const char* name;      // the kernel's suffix ("" for a one-kernel op)
  double reads;          // tensors of [T, D] read
  double writes;         // tensors of [T, D] written
  double flops;          // per element
  const char* op_class;
  double row_reads = 0;  // [T, 1] vectors read
  double row_writes = 0; // [T, 1] vectors written
};

// Softmax over D, the way PyTorch runs it: F.softmax is one kernel (max, exp-sum and normalise over
// the row, the row re-read from L2); written out in torch ops it is five kernels, each a full pass:
// max, x − max, exp, sum, ÷ sum. FLOPs per element: 1 compare, 1 subtract, 1 exp, 1 add, 1 divide.
const std::vector<Pass> kFusedSoftmax = {{"", 1, 1, 5, "softmax"}};
const std::vector<Pass> kUnfusedSoftmax = {{"max", 1, 0, 1, "reduction", 0, 1},
                                           {"sub", 1, 1, 1, "elementwise", 1, 0},
                                           {"exp", 1, 1, 1, "elementwise"},
                                           {"sum", 1, 0, 1, "reduction", 0, 1},
                                           {"div", 1, 1, 1, "elementwise", 1, 0}};

// GELU (F.gelu, erf form): about 8 FLOP per element. transpose: x.t().contiguous() of a [T, D]
// tensor, the elementwise copy kernel with strided reads (op class "transpose").
const std::map<std::string, std::vector<Pass>>& ops() {
  static const std::map<std::string, std::vector<Pass>> table = {
      {"add", {{"", 2, 1, 1, "elementwise"}}},      {"silu_mul", {{"", 2, 1, 6, "elementwise"}}},
      {"rmsnorm", {{"", 1, 1, 4, "norm"}}},         {"layernorm", {{"", 1, 1, 6, "norm"}}},
      {"copy", {{"", 1, 1, 0, "elementwise"}}},     {"fill", {{"", 0, 1, 0, "elementwise"}}},
      {"read_sum", {{"", 1, 0, 1, "reduction", 0, 1}}}, {"softmax", kFusedSoftmax},
      {"gelu", {{"", 1, 1, 8, "elementwise"}}},     {"transpose", {{"", 1, 1, 0, "transpose"}}},
  };
  return table;
}

// softmax's impl=fused (one kernel) or unfused (five torch ops).
const std::vector<Pass>& kernels_of(const WorkloadSpec& spec, const std::string& name,
                                    const std::vector<Pass>& passes) {
  if (!spec.has("impl")) return passes;
  std::string impl = spec.word("impl", "fused");
  if (name != "softmax")
    workload_error(fmt::format("workload '{}': impl: only op=softmax has implementations (fused, unfused)", spec.text()));
  if (impl == "fused") return kFusedSoftmax;
  if (impl == "unfused") return kUnfusedSoftmax;
  workload_error(fmt::format("workload '{}': impl: '{}' is not one of fused (one kernel), unfused (max, sub, exp, sum, "
                             "div: five kernels){}", spec.text(), impl, did_you_mean(impl, {"fused", "unfused"})));
}

Workload build_elementwise(const WorkloadSpec& spec) {
  std::string name = spec.word("op", "add");
  auto it = ops().find(name);
  if (it == ops().end()) {
    std::vector<std::string> valid;
    for (const auto& [n, p] : ops()) valid.push_back(n);
    workload_error(fmt::format("workload '{}': op: unknown '{}'{}; valid: {}", spec.text(), name,
                               did_you_mean(name, valid), join(valid)));
  }
  const std::vector<Pass>& passes = kernels_of(spec, name, it->second);
  std::int64_t rows = spec.positive_int("T", 1);
  std::int64_t cols = spec.positive_int("D");
  DType dtype = spec.dtype("dtype", DType::bf16);
  // Each repeat (and each buffer set) is one more kernel to simulate and no more memory: bounded
  // so a run ends.
  constexpr std::int64_t kMaxRepeat = 10000;
  std::int64_t repeat = spec.positive_int("repeat", 1, kMaxRepeat);
  std::int64_t buffers = spec.positive_int("buffers", 1, kMaxRepeat);
  spec.reject_unused({"op", "T", "D", "dtype", "repeat", "impl", "buffers"});
  double e = bytes_per_element(dtype);
  double tensor = double(rows) * double(cols) * e, row_vector = double(rows) * e;
  Workload w;
  w.steps.push_back(WorkloadStep{name, {}});
  // `repeat` calls, as a benchmark loop runs them, on `buffers` buffer sets in turn: with one set,
  // later calls find in L2 whatever of the input and output still fits there; rotating over sets
  // larger than L2 (as the timing harnesses do), each call reads from memory and pays for writing
  // back what the call before it left dirty. A multi-kernel op chains its kernels through
  // temporaries.
  for (std::int64_t r = 0; r < repeat; ++r) {
    std::string call = repeat > 1 ? name + "#" + std::to_string(r) : name;
    std::string set = buffers > 1 ? "#" + std::to_string(r % buffers) : "";
    std::string input = "in" + set;
    for (std::size_t i = 0; i < passes.size(); ++i) {
      const Pass& p = passes[i];
      StreamOp s;
      bool norm = p.op_class == std::string("norm");
      s.bytes_read = p.reads * tensor + p.row_reads * row_vector + (norm ? double(cols) * e : 0);
      s.bytes_written = p.writes * tensor + p.row_writes * row_vector;
      s.flops = p.flops * double(rows) * double(cols);
      s.rows = rows;
      s.element_bytes = e;
      s.unvectorized = p.row_reads > 0 && p.writes > 0;  // a [T, 1] vector broadcast against [T, D]
      // A transpose reads one element per strided access, through PyTorch's offset-calculating
      // (unvectorised) elementwise_kernel.
      if (p.op_class == std::string("transpose")) s.strided_read_bytes = e, s.unvectorized = true;
      bool last = i + 1 == passes.size();
      std::string output = last ? "out" + set : fmt::format("tmp{}{}", i, set);
      std::string op_name = *p.name ? call + "." + p.name : call;
      add_op(w.steps.back().graph, Op{op_name, p.op_class, s, input, output});
      if (p.writes > 0) input = output;
    }
  }
  return w;
}

HWSIM_REGISTER_WORKLOAD("elementwise",
                        "one memory-bound op on a [T,D] tensor: op=add|rmsnorm|layernorm|silu_mul|copy|fill|read_sum|"
                        "softmax|gelu|transpose, T=1, D, dtype=bf16, repeat=1 (calls on one buffer set), "
                        "buffers=1 (buffer sets the calls rotate over), impl=fused|unfused (softmax: one kernel or five)",
                        build_elementwise);

// The third of four calls: a call in the middle of the benchmark loop (the step's end, which
// writes back what is still dirty in L2, falls on the fourth).
double third_call_seconds(const nlohmann::json& document) {
  return document["result"]["steps"][0]["kernels"][2]["seconds"].get<double>();
}

// Measurement kinds over [T, D] tensors.
std::optional<PredictionPlan> rows_plan(const Measurement& m) {
  auto T = record_whole(m, "T"), D = record_whole(m, "D");
  if (!T || !D) return std::nullopt;
  std::string dtype = record_text(m, "dtype").value_or("bf16");
  // The records time repeated calls on one buffer set: predict the third of four calls.
  return PredictionPlan{fmt::format("elementwise:op={},T={},D={},dtype={},repeat=4", m.kind, *T, *D,
                                    dtype == "bfloat16" ? "bf16" : dtype),
                        third_call_seconds};
}

// Memory kinds over a flat buffer of `bytes_each` bytes (shared/calibration: copy, read_sum_fp32,
// fill_fp32), also timed as repeated calls on one buffer set, as elements of `dtype`. The sum
// reads fp32 elements (a reduction counts its values per thread in elements); a copy or fill moves
// bytes whatever the type, so they are described as int8.
std::optional<PredictionPlan> buffer_plan(const Measurement& m, const char* op, DType dtype) {
  auto bytes_each = record_whole(m, "bytes_each");
  if (!bytes_each) return std::nullopt;
  auto elements = std::int64_t(double(*bytes_each) / bytes_per_element(dtype));
  return PredictionPlan{fmt::format("elementwise:op={},T=1,D={},dtype={},repeat=4", op, elements, dtype_name(dtype)),
                        third_call_seconds};
}

HWSIM_REGISTER_MEASUREMENT("copy", "a device-to-device copy of a buffer (bytes)", [](const Measurement& m) { return buffer_plan(m, "copy", DType::int8); });
HWSIM_REGISTER_MEASUREMENT("read_sum_fp32", "a sum over an fp32 buffer (bytes): a read-bandwidth kernel", [](const Measurement& m) { return buffer_plan(m, "read_sum", DType::fp32); });
HWSIM_REGISTER_MEASUREMENT("fill_fp32", "a fill of an fp32 buffer (bytes): a write-bandwidth kernel", [](const Measurement& m) { return buffer_plan(m, "fill", DType::int8); });
HWSIM_REGISTER_MEASUREMENT("add", "an elementwise add over [T, D] rows", rows_plan);
HWSIM_REGISTER_MEASUREMENT("rmsnorm", "RMSNorm over [T, D] rows", rows_plan);
HWSIM_REGISTER_MEASUREMENT("layernorm", "LayerNorm over [T, D] rows", rows_plan);

}  // namespace
}  // namespace hwsim
