// The backward of every GEMM is two GEMMs (dX and dW) of the forward's FLOPs each: a training
// step's backward GEMM FLOPs are exactly twice its forward GEMM FLOPs.
#include <doctest/doctest.h>

#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("train: backward GEMM FLOPs are twice the forward GEMM FLOPs (dX and dW per GEMM)") {
  for (const char* spec : {"train:model=llama3_8b,layers=2,batch=2,seq=256",
                           "train:model=mixtral_8x7b,layers=2,batch=1,seq=128",
                           "train:model=gpt2,batch=2,seq=128,microbatches=2",
                           "train:model=llama3_8b,layers=2,batch=4,seq=128,tp=2,pp=2,dp=2,microbatches=2,zero=3"}) {
    CAPTURE(spec);
    Workload w = WorkloadCatalog::build(spec);
    const OpGraph& g = w.steps.at(0).graph;
    double forward = 0, backward = 0;
    int forward_gemms = 0, dx = 0, dw = 0;
    for (OpVertex v : execution_order(g)) {
      const Op& op = g[v];
      if (!std::holds_alternative<GemmOp>(op.shape)) continue;
      if (op.name.find("bwd.") != std::string::npos) {
        backward += op_flops(op);
        bool is_dx = op.name.size() > 3 && op.name.compare(op.name.size() - 3, 3, ".dx") == 0;
        (is_dx ? dx : dw) += 1;
      } else {
        forward += op_flops(op);
        ++forward_gemms;
      }
    }
    CHECK(forward > 0);
    CHECK(backward == doctest::Approx(2 * forward).epsilon(1e-12));
    CHECK(dx == forward_gemms);
    CHECK(dw == forward_gemms);
  }
}

TEST_CASE("train: dX and dW transpose the forward GEMM's dimensions") {
  Workload w = WorkloadCatalog::build("train:model=llama3_8b,layers=1,batch=1,seq=64");
  const OpGraph& g = w.steps.at(0).graph;
  const GemmOp* fwd = nullptr;
  const GemmOp* dx = nullptr;
  const GemmOp* dw = nullptr;
  for (OpVertex v : execution_order(g)) {
    if (g[v].name == "L0.qkv_proj") fwd = &std::get<GemmOp>(g[v].shape);
    if (g[v].name == "bwd.L0.qkv_proj.dx") dx = &std::get<GemmOp>(g[v].shape);
    if (g[v].name == "bwd.L0.qkv_proj.dw") dw = &std::get<GemmOp>(g[v].shape);
  }
  REQUIRE(fwd);
  REQUIRE(dx);
  REQUIRE(dw);
  // forward: out[64, 6144] = x[64, 4096] · W[6144, 4096]ᵀ
  CHECK(fwd->m == 64);
  CHECK(fwd->n == 6144);
  CHECK(fwd->k == 4096);
  // dX[64, 4096] = dY[64, 6144] · W[6144, 4096]
  CHECK(dx->m == 64);
  CHECK(dx->n == 4096);
  CHECK(dx->k == 6144);
  // dW[6144, 4096] = dY[64, 6144]ᵀ · x[64, 4096]
  CHECK(dw->m == 6144);
  CHECK(dw->n == 4096);
  CHECK(dw->k == 64);
}
