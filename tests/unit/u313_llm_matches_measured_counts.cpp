// The lowering reproduces the FLOP and byte counts the measurement script recorded independently
// (data/measurements/README.md): prefill linear_flops and attn_flops, decode weight_bytes and
// kv_bytes_read, for every decode_step and prefill_step record of h100_llm.jsonl.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>

#include "workloads/workload.h"

using namespace hwsim;

namespace {
struct Counts {
  double gemm_flops = 0, attention_flops = 0, gemm_weight_bytes = 0, kv_read_bytes = 0;
};

Counts count(const Workload& w) {
  Counts c;
  const OpGraph& g = w.steps.at(0).graph;
  for (OpVertex v : execution_order(g)) {
    const Op& op = g[v];
    if (const auto* gemm = std::get_if<GemmOp>(&op.shape)) {
      c.gemm_flops += op_flops(op);
      c.gemm_weight_bytes += double(gemm->groups * gemm->n * gemm->k) * bytes_per_element(gemm->b);
    }
    if (const auto* a = std::get_if<AttentionOp>(&op.shape)) {
      c.attention_flops += op_flops(op);
      c.kv_read_bytes += 2.0 * double(a->batch * a->kv_heads * a->kv_len * a->head_dim) * bytes_per_element(a->kv_dtype);
    }
  }
  return c;
}
}  // namespace

TEST_CASE("llm lowering: FLOPs and bytes equal the measurement script's own counts") {
  std::ifstream in(std::string(HWSIM_SOURCE_DIR) + "/data/measurements/h100_llm.jsonl");
  REQUIRE(in);
  int decode = 0, prefill = 0;
  for (std::string line; std::getline(in, line);) {
    auto r = nlohmann::json::parse(line);
    if (r["kind"] == "decode_step") {
      ++decode;
      Workload w = WorkloadCatalog::build(fmt::format("decode:model={},batch={},context={},layers={}",
                                                      r["model"].get<std::string>(), r["batch"].get<int>(),
                                                      r["context"].get<int>(), r["layers"].get<int>()));
      Counts c = count(w);
      CHECK(c.gemm_weight_bytes == r["weight_bytes"].get<double>());
      CHECK(c.kv_read_bytes == r["kv_bytes_read"].get<double>());
    }
    if (r["kind"] == "prefill_step") {
      ++prefill;
      Workload w = WorkloadCatalog::build(fmt::format("prefill:model={},batch={},prompt={},layers={}",
                                                      r["model"].get<std::string>(), r["batch"].get<int>(),
                                                      r["prompt"].get<int>(), r["layers"].get<int>()));
      Counts c = count(w);
      CHECK(c.gemm_flops == r["linear_flops"].get<double>());
      CHECK(c.attention_flops == r["attn_flops"].get<double>());
    }
  }
  CHECK(decode == 18);
  CHECK(prefill == 6);
}
