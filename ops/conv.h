#pragma once
// 2-D convolution as the frontend knows it (shapes and dtypes, never hardware), and the shape
// arithmetic every device's lowering shares: output size, MAC count, bytes, and the implicit-GEMM
// view (a GPU or TPU runs a conv as out[M,N] = im2col(x)[M,K] · W[N,K]ᵀ per group).
#include <cstdint>
#include <string>

#include "ops/dtype.h"

namespace hwsim {

struct GemmOp;
struct StreamOp;

// NHWC convolution: `batch` images of in_h × in_w × in_c, out_c filters of kernel_h × kernel_w ×
// (in_c / groups), strides, explicit zero padding per side. groups > 1 splits channels into
// independent groups; groups == in_c with out_c a multiple of in_c is a depthwise conv (depth
// multiplier out_c / in_c). `a` activations, `b` weights, `out` the result dtype. per_channel:
// int8 requantisation with one scale per output channel (TFLite int8); either way each output
// channel has one scale (4 B) and one int32 bias (4 B), counted with the weights.
struct ConvOp {
  std::int64_t batch = 1, in_h = 1, in_w = 1, in_c = 1, out_c = 1;
  std::int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1;
  std::int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  std::int64_t groups = 1;
  DType a = DType::int8, b = DType::int8, out = DType::int8;
  bool per_channel = true;
};

// Bytes of one output channel's requantisation parameters: a 4-byte scale and an int32 bias.
inline constexpr double kConvBytesPerChannelParams = 4 + 4;

enum class ConvPadding { same, valid };
// Sets the padding TensorFlow's "same" (output = ceil(in / stride), the odd pixel at the bottom and
// right) or "valid" (none) would use.
void set_padding(ConvOp& c, ConvPadding p);

std::int64_t conv_out_h(const ConvOp& c);
std::int64_t conv_out_w(const ConvOp& c);
bool is_depthwise(const ConvOp& c);  // groups == in_c > 1, out_c a multiple of in_c
// Multiply-adds: batch · OH · OW · out_c · (in_c / groups) · KH · KW.
double conv_macs(const ConvOp& c);
double conv_input_bytes(const ConvOp& c);
double conv_output_bytes(const ConvOp& c);
// The filters, plus each output channel's scale and bias.
double conv_weight_bytes(const ConvOp& c);

// Throws UserError(workload), one line naming `name`: a non-positive size or stride, negative
// padding, channels not divisible by groups, a kernel larger than its padded input.
void check_conv(const ConvOp& c, const std::string& name);

// The implicit GEMM of a conv: M = batch · OH · OW, N = out_c / groups, K = in_c / groups · KH · KW,
// `groups` independent GEMMs; 2·M·N·K·groups = 2·conv_macs. Reads im2col(x) (each input pixel
// KH·KW/(stride_h·stride_w) times, as an implicit GEMM streams it), the filters, writes the output.
GemmOp conv_as_gemm(const ConvOp& c);
// A depthwise conv as the memory-bound pass GPUs and TPUs run it: input, filters and parameters
// read once, output written once, 2·MACs of vector work, one row per output row.
StreamOp depthwise_as_stream(const ConvOp& c);

}  // namespace hwsim
