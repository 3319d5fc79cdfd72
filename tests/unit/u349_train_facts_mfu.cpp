// Facts for the metrics: tokens per step, model FLOPs by PaLM's definition (6N + 12·L·H·Q·T per
// token, without recomputation), hardware FLOPs from the graph, MFU.
#include <doctest/doctest.h>

#include "workloads/llm/train_workload.h"
#include "workloads/llm/train_memory.h"
#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("train facts: tokens, model FLOPs (PaLM appendix B), hardware FLOPs, MFU") {
  Workload w = WorkloadCatalog::build("train:model=llama3_8b,layers=2,batch=4,seq=256,dp=2");
  auto f = train_facts(w);
  REQUIRE(f);
  CHECK(f->tokens == 4 * 256);
  CHECK(w.steps.at(0).tokens == 4 * 256);
  CHECK(f->devices == 2);
  CHECK(f->micro_batch == 2);
  const double h = 4096, V = 128256;
  const double layer = (32 + 16) * 128 * h + 32 * 128 * h + 3 * h * 14336 + 2 * h;
  const double N = 2 * layer + h + V * h;  // layers, final norm, LM head (not the input embedding)
  CHECK(f->flop_params == N);
  CHECK(f->params == N + V * h);
  CHECK(f->model_flops == doctest::Approx(1024 * (6 * N + 12 * 2 * 32 * 128 * 256.0)));
  CHECK(f->model_state_bytes == doctest::Approx(16 * f->params));
  // Executed FLOPs: both replicas' whole graphs; close to the model FLOPs (causal attention does
  // half of PaLM's attention term; stream ops and the optimizer add a little).
  CHECK(f->executed_flops > 0.9 * f->model_flops);
  CHECK(f->executed_flops < 1.1 * f->model_flops);
  // Hardware FLOPs (PaLM's HFU): the model FLOPs without recomputation.
  CHECK(f->hardware_flops == f->model_flops);
  CHECK(f->mfu(2.0, f->model_flops) == doctest::Approx(1.0 / (2.0 * 2)));  // 2 s on 2 devices
  // Checkpointing raises the hardware FLOPs by one forward of the layers (not of the LM head, which
  // dominates this 2-layer model), not the model FLOPs.
  auto full = train_facts(WorkloadCatalog::build("train:model=llama3_8b,layers=2,batch=4,seq=256,dp=2,checkpoint=full"));
  REQUIRE(full);
  CHECK(full->model_flops == f->model_flops);
  CHECK(full->executed_flops > f->executed_flops * 1.1);
  // PaLM's HFU adds the rematerialised forward of the layers by the model formula: 2·N_layers +
  // 4·L·H·Q·T per token (a third of the layers' 6·N + 12·L·H·Q·T).
  CHECK(full->hardware_flops == doctest::Approx(f->model_flops + 1024 * (2 * 2 * layer + 4 * 2 * 32 * 128 * 256.0)));
  // Presets re-parse with their defaults.
  auto preset = train_facts(WorkloadCatalog::build("train_llama8b:layers=2,seq=128"));
  REQUIRE(preset);
  CHECK(preset->dp == 8);
  CHECK(preset->zero == 1);
  CHECK(preset->tokens == 8 * 128);
}
