#pragma once
// TinyML models (MLPerf Tiny) as data: workloads/tiny/models/NAME.toml lists the layers of an int8
// TFLite-style network (batch norm folded into the convs, ReLU fused into their output stage), and
// build_tiny_graph turns them into an op graph: conv and depthwise conv (ConvOp), pooling, residual
// add and softmax (StreamOp of op_class "pool", "add", "softmax"), fully connected (GemmOp int8,
// m = batch, op_class "fc"). Shapes only, no hardware.
#include <cstdint>
#include <string>
#include <vector>

#include "ops/op_graph.h"

namespace hwsim {

struct TinyLayer {
  std::string name, op;            // op: conv, dwconv, avgpool, maxpool, fc, add, softmax
  std::vector<std::string> inputs; // earlier layers' names (empty: the previous layer, or the model input)
  std::int64_t filters = 0;        // conv: output channels; fc: units
  std::int64_t multiplier = 1;     // dwconv: depth multiplier
  std::int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1;
  std::string padding = "same";    // conv/dwconv/pool: same | valid
  int line = 0;                    // in the file, for errors
};

struct TinyModel {
  std::string name, description, path;
  std::int64_t in_h = 1, in_w = 1, in_c = 1;
  std::vector<TinyLayer> layers;
};

std::string tiny_model_folder();
std::vector<std::string> tiny_model_names();
// Throws UserError(workload) with file:line for a malformed file.
TinyModel load_tiny_model(const std::string& name);
// The model in the file at `path` (what load_tiny_model reads from the folder): read as every
// input file is (a regular file within 64 MiB), TOML nesting bounded, every size a whole number in
// [1, 65536].
TinyModel load_tiny_model_file(const std::string& path, const std::string& name);
// Throws UserError(workload) for a layer whose shape is impossible (a kernel larger than its input).
OpGraph build_tiny_graph(const TinyModel& model, std::int64_t batch);

// Elementwise work per element, as TFLite's int8 kernels do it (the frontend's op counts):
// ADD rescales both inputs, adds, rescales the output; SOFTMAX subtracts the max, exponentiates
// (a lookup and a multiply), sums, scales by the reciprocal; estimate of its operation count.
inline constexpr double kInt8AddOpsPerElement = 4;
inline constexpr double kInt8SoftmaxOpsPerElement = 6;

}  // namespace hwsim
