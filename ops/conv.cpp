#include "ops/conv.h"

#include <algorithm>
#include <fmt/format.h>

#include "ops/op.h"
#include "sim/arith.h"
#include "sim/error.h"

namespace hwsim {
namespace {

// TensorFlow "same": the output covers ceil(in / stride) positions; the padding needed for that
// is split with the odd pixel after the input.
void same_padding(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t& before,
                  std::int64_t& after) {
  std::int64_t out = ceil_div(in, stride);
  std::int64_t total = std::max<std::int64_t>((out - 1) * stride + kernel - in, 0);
  before = total / 2;
  after = total - before;
}

}  // namespace

void set_padding(ConvOp& c, ConvPadding p) {
  if (p == ConvPadding::valid) {
    c.pad_top = c.pad_bottom = c.pad_left = c.pad_right = 0;
    return;
  }
  same_padding(c.in_h, c.kernel_h, c.stride_h, c.pad_top, c.pad_bottom);
  same_padding(c.in_w, c.kernel_w, c.stride_w, c.pad_left, c.pad_right);
}

std::int64_t conv_out_h(const ConvOp& c) { return (c.in_h + c.pad_top + c.pad_bottom - c.kernel_h) / c.stride_h + 1; }
std::int64_t conv_out_w(const ConvOp& c) { return (c.in_w + c.pad_left + c.pad_right - c.kernel_w) / c.stride_w + 1; }

bool is_depthwise(const ConvOp& c) { return c.groups > 1 && c.groups == c.in_c && c.out_c % c.in_c == 0; }

double conv_macs(const ConvOp& c) {
  return double(c.batch) * double(conv_out_h(c)) * double(conv_out_w(c)) * double(c.out_c) *
         double(c.in_c / c.groups) * double(c.kernel_h) * double(c.kernel_w);
}

double conv_input_bytes(const ConvOp& c) {
  return double(c.batch) * double(c.in_h) * double(c.in_w) * double(c.in_c) * bytes_per_element(c.a);
}

double conv_output_bytes(const ConvOp& c) {
  return double(c.batch) * double(conv_out_h(c)) * double(conv_out_w(c)) * double(c.out_c) * bytes_per_element(c.out);
}

double conv_weight_bytes(const ConvOp& c) {
  double filters = double(c.out_c) * double(c.in_c / c.groups) * double(c.kernel_h) * double(c.kernel_w) *
                   bytes_per_element(c.b);
  return filters + double(c.out_c) * kConvBytesPerChannelParams;
}

void check_conv(const ConvOp& c, const std::string& name) {
  auto bad = [&](const std::string& what) { workload_error(fmt::format("{}: {}", name, what)); };
  if (c.batch < 1 || c.in_h < 1 || c.in_w < 1 || c.in_c < 1 || c.out_c < 1 || c.kernel_h < 1 || c.kernel_w < 1)
    bad("batch, input size, channels and kernel size must be >= 1");
  if (c.stride_h < 1 || c.stride_w < 1)
    bad(fmt::format("stride {}x{} must be >= 1", c.stride_h, c.stride_w));
  if (c.pad_top < 0 || c.pad_bottom < 0 || c.pad_left < 0 || c.pad_right < 0) bad("padding must be >= 0");
  if (c.groups < 1 || c.in_c % c.groups != 0 || c.out_c % c.groups != 0)
    bad(fmt::format("groups {} must divide in_c {} and out_c {}", c.groups, c.in_c, c.out_c));
  std::int64_t padded_h = c.in_h + c.pad_top + c.pad_bottom, padded_w = c.in_w + c.pad_left + c.pad_right;
  if (c.kernel_h > padded_h || c.kernel_w > padded_w)
    bad(fmt::format("kernel {}x{} is larger than its padded input {}x{} (input {}x{}); use a kernel of at most "
                    "{}x{} or padding=same",
                    c.kernel_h, c.kernel_w, padded_h, padded_w, c.in_h, c.in_w, padded_h, padded_w));
}

GemmOp conv_as_gemm(const ConvOp& c) {
  GemmOp g;
  g.m = c.batch * conv_out_h(c) * conv_out_w(c);
  g.n = c.out_c / c.groups;
  g.k = c.in_c / c.groups * c.kernel_h * c.kernel_w;
  g.groups = c.groups;
  g.a = c.a;
  g.b = c.b;
  g.out = c.out;
  return g;
}

StreamOp depthwise_as_stream(const ConvOp& c) {
  StreamOp s;
  s.bytes_read = conv_input_bytes(c) + conv_weight_bytes(c);
  s.bytes_written = conv_output_bytes(c);
  s.flops = 2 * conv_macs(c);
  s.rows = c.batch * conv_out_h(c);
  return s;
}

}  // namespace hwsim
