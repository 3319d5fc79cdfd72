// build_tiny_graph: a TinyModel's layers → an op graph, tracking each layer's output shape (NHWC).
#include <fmt/format.h>
#include <map>

#include "sim/error.h"
#include "workloads/tiny/tiny_model.h"

namespace hwsim {
namespace {

struct Tensor {
  std::int64_t h = 0, w = 0, c = 0;
  bool from_op = false;
  OpVertex vertex = 0;
  double elements(std::int64_t batch) const { return double(batch) * double(h) * double(w) * double(c); }
};

class GraphBuilder {
 public:
  GraphBuilder(const TinyModel& m, std::int64_t batch) : m_(m), batch_(batch) {
    last_ = Tensor{m.in_h, m.in_w, m.in_c, false, 0};
  }

  OpGraph build() {
    if (m_.in_h < 1 || m_.in_w < 1 || m_.in_c < 1) fail(0, "input sizes must be >= 1");
    for (const TinyLayer& l : m_.layers) {
      if (named_.count(l.name)) fail(l.line, fmt::format("layer name '{}' repeats", l.name));
      std::vector<Tensor> in = inputs(l);
      Tensor out = add_layer(l, in);
      named_[l.name] = out;
      last_ = out;
    }
    return std::move(graph_);
  }

 private:
  [[noreturn]] void fail(int line, const std::string& what) const {
    workload_error(line > 0 ? fmt::format("{}:{}: {}", m_.path, line, what) : fmt::format("{}: {}", m_.path, what));
  }

  std::vector<Tensor> inputs(const TinyLayer& l) const {
    if (l.inputs.empty()) return {last_};
    std::vector<Tensor> in;
    for (const auto& name : l.inputs) {
      auto it = named_.find(name);
      if (it == named_.end()) fail(l.line, fmt::format("layer {}: input '{}' is not an earlier layer", l.name, name));
      in.push_back(it->second);
    }
    return in;
  }

  Tensor emit(Op op, const std::vector<Tensor>& in, std::int64_t h, std::int64_t w, std::int64_t c) {
    std::vector<OpVertex> preds;
    for (const Tensor& t : in)
      if (t.from_op) preds.push_back(t.vertex);
    return Tensor{h, w, c, true, add_op(graph_, std::move(op), preds)};
  }

  Tensor conv(const TinyLayer& l, const Tensor& x) {
    ConvOp c;
    c.batch = batch_, c.in_h = x.h, c.in_w = x.w, c.in_c = x.c;
    c.kernel_h = l.kernel_h, c.kernel_w = l.kernel_w, c.stride_h = l.stride_h, c.stride_w = l.stride_w;
    bool dw = l.op == "dwconv";
    c.groups = dw ? x.c : 1;
    c.out_c = dw ? x.c * l.multiplier : l.filters;
    if (c.out_c < 1) fail(l.line, fmt::format("layer {}: filters must be >= 1", l.name));
    set_padding(c, l.padding == "valid" ? ConvPadding::valid : ConvPadding::same);
    check_conv(c, fmt::format("{}:{}: layer {}", m_.path, l.line, l.name));
    return emit(Op{l.name, dw ? "dwconv" : "conv", c}, {x}, conv_out_h(c), conv_out_w(c), c.out_c);
  }

  // Pooling as a conv without weights: the same output arithmetic, one op per window element.
  Tensor pool(const TinyLayer& l, const Tensor& x) {
    ConvOp shape;
    shape.in_h = x.h, shape.in_w = x.w, shape.in_c = shape.out_c = shape.groups = x.c;
    shape.kernel_h = l.kernel_h, shape.kernel_w = l.kernel_w, shape.stride_h = l.stride_h, shape.stride_w = l.stride_w;
    set_padding(shape, l.padding == "valid" ? ConvPadding::valid : ConvPadding::same);
    check_conv(shape, fmt::format("{}:{}: layer {}", m_.path, l.line, l.name));
    Tensor out{conv_out_h(shape), conv_out_w(shape), x.c};
    StreamOp s{x.elements(batch_), out.elements(batch_),
               out.elements(batch_) * double(l.kernel_h * l.kernel_w), batch_ * out.h};
    return emit(Op{l.name, "pool", s}, {x}, out.h, out.w, out.c);
  }

  Tensor add_layer(const TinyLayer& l, const std::vector<Tensor>& in) {
    const Tensor& x = in.front();
    if (l.op == "conv" || l.op == "dwconv") return conv(l, x);
    if (l.op == "avgpool" || l.op == "maxpool") return pool(l, x);
    if (l.op == "fc") {
      if (l.filters < 1) fail(l.line, fmt::format("layer {}: units must be >= 1", l.name));
      GemmOp g;
      g.m = batch_, g.n = l.filters, g.k = x.h * x.w * x.c;  // flattens its input
      g.a = g.b = g.out = DType::int8;
      g.runtime_pads_rows = true;  // a compiled int8 graph: its runtime lays out (pads) the tensors
      return emit(Op{l.name, "fc", g}, {x}, 1, 1, l.filters);
    }
    if (l.op == "add") {
      if (in.size() != 2 || in[0].h != in[1].h || in[0].w != in[1].w || in[0].c != in[1].c)
        fail(l.line, fmt::format("layer {}: add needs two inputs of one shape", l.name));
      double n = x.elements(batch_);
      return emit(Op{l.name, "add", StreamOp{2 * n, n, kInt8AddOpsPerElement * n, batch_ * x.h}}, in, x.h, x.w, x.c);
    }
    double n = x.elements(batch_);  // softmax
    return emit(Op{l.name, "softmax", StreamOp{n, n, kInt8SoftmaxOpsPerElement * n, batch_}}, {x}, x.h, x.w, x.c);
  }

  const TinyModel& m_;
  std::int64_t batch_;
  OpGraph graph_;
  Tensor last_;
  std::map<std::string, Tensor> named_;
};

}  // namespace

OpGraph build_tiny_graph(const TinyModel& model, std::int64_t batch) { return GraphBuilder(model, batch).build(); }

}  // namespace hwsim
