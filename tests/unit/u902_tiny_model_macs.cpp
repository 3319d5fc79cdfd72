// The four MLPerf Tiny reference models, built from workloads/tiny/models, have the MAC counts
// computed by hand from the mlcommons/tiny Keras definitions (see each file's header).
#include <doctest/doctest.h>

#include "ops/footprint.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
struct Count {
  double macs = 0;
  int convs = 0, dwconvs = 0, fcs = 0, pools = 0, adds = 0, softmaxes = 0;
};
Count count(const char* spec) {
  Workload w = WorkloadCatalog::build(spec);
  Count c;
  const OpGraph& g = w.steps.front().graph;
  for (OpVertex v : execution_order(g)) {
    const Op& op = g[v];
    if (const auto* cv = std::get_if<ConvOp>(&op.shape)) c.macs += conv_macs(*cv);
    if (const auto* gm = std::get_if<GemmOp>(&op.shape)) c.macs += double(gm->m) * gm->n * gm->k;
    c.convs += op.op_class == "conv", c.dwconvs += op.op_class == "dwconv", c.fcs += op.op_class == "fc";
    c.pools += op.op_class == "pool", c.adds += op.op_class == "add", c.softmaxes += op.op_class == "softmax";
  }
  return c;
}
}  // namespace

TEST_CASE("tiny models: MAC totals and layer counts match the reference architectures") {
  Count kws = count("kws_dscnn");
  CHECK(kws.macs == 320000 + 4 * (72000 + 512000) + 768);  // 2,656,768
  CHECK(kws.convs == 5);
  CHECK(kws.dwconvs == 4);
  CHECK(kws.softmaxes == 1);
  Count vww = count("vww_mobilenet");
  CHECK(vww.macs == 7489664);
  CHECK(vww.dwconvs == 13);
  CHECK(vww.convs == 14);
  Count ic = count("ic_resnet8");
  CHECK(ic.macs == 442368 + 2 * 2359296 + 1179648 + 2359296 + 131072 + 1179648 + 2359296 + 131072 + 640);
  CHECK(ic.adds == 3);
  CHECK(ic.convs == 9);
  Count ad = count("ad_fc_autoencoder");
  CHECK(ad.macs == 264192);
  CHECK(ad.fcs == 10);
  CHECK(ad.softmaxes == 0);
  CHECK(count("kws_dscnn:batch=2").macs == 2 * kws.macs);
}

TEST_CASE("tiny models: DS-CNN weights and activation arena by hand") {
  Workload w = WorkloadCatalog::build("kws_dscnn");
  const OpGraph& g = w.steps.front().graph;
  ArenaPlan p = plan_arena(g, execution_order(g));
  // conv1 64*40 + 64*8; 4 x dw (64*9 + 64*8); 4 x pw (64*64 + 64*8); fc 64*12 + 12*4 (int32 bias)
  CHECK(p.weight_bytes == 3072 + 4 * 1088 + 4 * 4608 + 816);
  // peak: a 25x5x64 int8 tensor in and one out of a depthwise or pointwise layer
  CHECK(p.peak == 16000);
}
