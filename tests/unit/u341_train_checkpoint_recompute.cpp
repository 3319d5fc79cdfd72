// checkpoint=full recomputes each layer's forward right before its backward: the recompute ops
// copy the layer ops one for one (same FLOPs), and the step gains exactly one forward of the layers.
#include <doctest/doctest.h>

#include <map>

#include "workloads/workload.h"

using namespace hwsim;

namespace {
struct Sums {
  double total = 0, layer_forward = 0, recompute = 0;
  int layer_forward_ops = 0, recompute_ops = 0;
  std::map<std::string, std::size_t> position;  // name → execution position
};
Sums sums(const std::string& spec) {
  Workload w = WorkloadCatalog::build(spec);
  const OpGraph& g = w.steps.at(0).graph;
  Sums s;
  std::size_t i = 0;
  for (OpVertex v : execution_order(g)) {
    const Op& op = g[v];
    s.position[op.name] = i++;
    s.total += op_flops(op);
    if (op.name.rfind("recompute.", 0) == 0) s.recompute += op_flops(op), ++s.recompute_ops;
    else if (op.name.size() > 1 && op.name[0] == 'L') s.layer_forward += op_flops(op), ++s.layer_forward_ops;
  }
  return s;
}
}  // namespace

TEST_CASE("train: checkpoint=full adds one forward of every layer, named recompute.L<i>.<op>") {
  Sums none = sums("train:model=llama3_8b,layers=3,batch=2,seq=256,checkpoint=none");
  Sums full = sums("train:model=llama3_8b,layers=3,batch=2,seq=256,checkpoint=full");
  CHECK(none.recompute_ops == 0);
  CHECK(full.recompute_ops == full.layer_forward_ops);
  CHECK(full.recompute == doctest::Approx(full.layer_forward).epsilon(1e-12));
  CHECK(full.total - none.total == doctest::Approx(none.layer_forward).epsilon(1e-12));

  // Each layer is recomputed after the later layers' backward and before its own.
  for (int i = 0; i < 3; ++i) {
    std::string L = "L" + std::to_string(i);
    CAPTURE(L);
    REQUIRE(full.position.count("recompute." + L + ".qkv_proj"));
    CHECK(full.position["recompute." + L + ".qkv_proj"] < full.position["bwd." + L + ".down_proj.dx"]);
    CHECK(full.position["recompute." + L + ".down_proj"] < full.position["bwd." + L + ".down_proj.dx"]);
    if (i < 2)
      CHECK(full.position["bwd.L" + std::to_string(i + 1) + ".qkv_proj.dx"] < full.position["recompute." + L + ".attn_norm"]);
  }
  // The embedding and the head are not recomputed.
  CHECK(full.position.count("recompute.embed") == 0);
  CHECK(full.position.count("recompute.lm_head") == 0);
}
