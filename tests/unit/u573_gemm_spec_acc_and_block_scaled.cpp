// gemm workload: acc=fp32 (default) | fp16 (only for fp16 and fp8 inputs); fp6/fp4 inputs write a
// bf16 result, as the block-scaled library kernels do; a bad acc is one workload error line.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"
#include "tests/fixtures/workload_support.h"
#include "workloads/workload.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
GemmOp gemm_of(const std::string& spec) {
  Workload w = WorkloadCatalog::build(spec);
  return std::get<GemmOp>(op_named(w.steps.at(0).graph, "gemm").shape);
}
}  // namespace

TEST_CASE("gemm spec: accumulate dtype and block-scaled inputs") {
  CHECK(gemm_of("gemm:M=64,N=64,K=64,dtype=fp16").acc == DType::fp32);
  CHECK(gemm_of("gemm:M=64,N=64,K=64,dtype=fp16,acc=fp16").acc == DType::fp16);
  CHECK(gemm_of("gemm:M=64,N=64,K=64,dtype=fp8,acc=fp16").acc == DType::fp16);
  GemmOp fp4 = gemm_of("gemm:M=64,N=64,K=64,dtype=fp4");
  CHECK(fp4.a == DType::fp4);
  CHECK(fp4.b == DType::fp4);
  CHECK(fp4.out == DType::bf16);
  CHECK(gemm_of("gemm:M=64,N=64,K=64,dtype=nvfp4").a == DType::fp4);
  CHECK(gemm_of("gemm:M=64,N=64,K=64,dtype=fp6").out == DType::bf16);

  CHECK(contains(workload_error_of("gemm:M=64,N=64,K=64,dtype=bf16,acc=fp16"), "acc: fp16 accumulate needs dtype=fp16 or fp8"));
  CHECK(contains(workload_error_of("gemm:M=64,N=64,K=64,dtype=fp16,acc=int8"), "valid: fp32, fp16"));
  CHECK(contains(workload_error_of("gemm:M=64,N=64,K=64,dtype=fp16,acc=fp17"), "acc"));
}
