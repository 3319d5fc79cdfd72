// TinyML workloads: the MLPerf Tiny reference models (one inference per step) and a single conv.
//   kws_dscnn, vww_mobilenet, ic_resnet8, ad_fc_autoencoder [batch=1]
//   tiny:model=NAME[,batch=1]             any model file in workloads/tiny/models
//   conv:h=,w=,in_c=,out_c=,kernel=3[,kernel_w=],stride=1,padding=same|valid|N,groups=1,batch=1,dtype=int8
#include <fmt/format.h>

#include "sim/error.h"
#include "workloads/tiny/tiny_model.h"
#include "workloads/workload.h"

namespace hwsim {
namespace {

Workload tiny_workload(const WorkloadSpec& spec, const std::string& model_name) {
  std::int64_t batch = spec.positive_int("batch", 1);
  spec.reject_unused({"batch", "model"});
  TinyModel m = load_tiny_model(model_name);
  Workload w;
  w.steps.push_back(WorkloadStep{"inference", build_tiny_graph(m, batch)});
  return w;
}

WorkloadBuilder preset(std::string model) {
  return [model](const WorkloadSpec& spec) { return tiny_workload(spec, model); };
}

Workload build_tiny(const WorkloadSpec& spec) { return tiny_workload(spec, spec.word("model", "")); }

void set_conv_padding(ConvOp& c, const WorkloadSpec& spec) {
  std::string p = spec.word("padding", "same");
  if (p == "same" || p == "valid") return set_padding(c, p == "same" ? ConvPadding::same : ConvPadding::valid);
  std::size_t used = 0;
  long long pad = -1;
  try { pad = std::stoll(p, &used); } catch (...) {}
  if (pad < 0 || used != p.size())
    workload_error(fmt::format("workload '{}': padding: '{}' is not same, valid or a whole number >= 0", spec.text(), p));
  c.pad_top = c.pad_bottom = c.pad_left = c.pad_right = pad;
}

Workload build_conv(const WorkloadSpec& spec) {
  ConvOp c;
  c.batch = spec.positive_int("batch", 1);
  c.in_h = spec.positive_int("h");
  c.in_w = spec.positive_int("w", c.in_h);
  c.in_c = spec.positive_int("in_c");
  c.out_c = spec.positive_int("out_c", c.in_c);
  c.kernel_h = spec.positive_int("kernel", 3);
  c.kernel_w = spec.positive_int("kernel_w", c.kernel_h);
  c.stride_h = c.stride_w = spec.positive_int("stride", 1);
  c.groups = spec.positive_int("groups", 1);
  DType t = spec.dtype("dtype", DType::int8);
  c.a = c.b = t;
  c.out = t;
  set_conv_padding(c, spec);
  spec.reject_unused({"batch", "h", "w", "in_c", "out_c", "kernel", "kernel_w", "stride", "padding", "groups", "dtype"});
  check_conv(c, "workload '" + spec.text() + "'");
  Workload w;
  w.steps.push_back(WorkloadStep{"conv", {}});
  add_op(w.steps.back().graph, Op{"conv", is_depthwise(c) ? "dwconv" : "conv", c});
  return w;
}

HWSIM_REGISTER_WORKLOAD("kws_dscnn", "MLPerf Tiny keyword spotting: DS-CNN small, 49x10 MFCC, int8 (2.66 M MACs); batch",
                        preset("kws_dscnn"));
HWSIM_REGISTER_WORKLOAD("vww_mobilenet", "MLPerf Tiny visual wake words: MobileNetV1 0.25, 96x96x3, int8 (7.49 M MACs); "
                        "batch", preset("vww_mobilenet"));
HWSIM_REGISTER_WORKLOAD("ic_resnet8", "MLPerf Tiny image classification: CIFAR-10 ResNet-8, 32x32x3, int8 (12.5 M MACs); "
                        "batch", preset("ic_resnet8"));
HWSIM_REGISTER_WORKLOAD("ad_fc_autoencoder", "MLPerf Tiny anomaly detection: FC autoencoder, 640 inputs, int8 "
                        "(0.26 M MACs); batch", preset("ad_fc_autoencoder"));
HWSIM_REGISTER_WORKLOAD("tiny", "a TinyML model file (workloads/tiny/models): model=NAME, batch", build_tiny);
HWSIM_REGISTER_WORKLOAD("conv", "one 2-D convolution, NHWC: h, w, in_c, out_c, kernel=3, kernel_w, stride=1, "
                        "padding=same|valid|N, groups=1 (= in_c: depthwise), batch=1, dtype=int8", build_conv);

}  // namespace
}  // namespace hwsim
