// zero_impl=fsdp2 (PyTorch's fully_shard per block, then the root): one reduce-scatter per block
// right after its backward, in the reduce dtype; the root unit (embedding, final norm, head)
// gathered once at the start and reduced once after the embedding's backward; the wrappers'
// copies around every collective (train_grad_copies.h); loss=fp32 without autocast; and the SMs a
// running collective holds (collective.compute_share).
#include <doctest/doctest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"
#include "workloads/llm/train_memory.h"
#include "workloads/spec.h"
#include "workloads/workload.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
const std::string kFsdp2 = "train:model=llama3_8b,layers=3,batch=2,seq=128,dp=2,zero=3,zero_impl=fsdp2,reduce=fp32";
}

TEST_CASE("train zero_impl=fsdp2: per-block reduce-scatters in fp32, the root unit gathered once and reduced last") {
  Workload w = WorkloadCatalog::build(kFsdp2);
  const OpGraph& g = w.steps.at(0).graph;
  std::vector<std::string> gathers, reduces;
  std::map<std::string, OpVertex> vertex;
  for (OpVertex v : execution_order(g)) {
    vertex[g[v].name] = v;
    if (!is_collective(g[v])) continue;
    const auto& c = std::get<CollectiveOp>(g[v].shape);
    if (c.kind == CollectiveKind::all_gather) gathers.push_back(g[v].name);
    if (c.kind == CollectiveKind::reduce_scatter) {
      reduces.push_back(g[v].name);
      CHECK(c.dtype == DType::fp32);
    }
  }
  // The root once, each of the 3 blocks in the forward and again in the backward.
  CHECK(gathers == std::vector<std::string>{"zero3.gather.root", "zero3.gather.L0", "zero3.gather.L1",
                                            "zero3.gather.L2", "bwd.zero3.gather.L2", "bwd.zero3.gather.L1",
                                            "bwd.zero3.gather.L0"});
  REQUIRE(reduces.size() == 3 + 1);  // one per block, then the root
  const auto params = train_params(parse_train_run(WorkloadSpec::parse(kFsdp2)).arch);
  const double h = 4096, layer = (32 + 16) * 128 * h + 32 * 128 * h + 3 * h * 14336 + 2 * h;
  CHECK(std::get<CollectiveOp>(g[vertex.at(reduces[0])].shape).bytes == doctest::Approx(4 * layer));
  CHECK(std::get<CollectiveOp>(g[vertex.at(reduces.back())].shape).bytes ==
        doctest::Approx(4 * (params.total() - 3 * layer)));
  // The root's reduce-scatter waits for the embedding's backward (through its chunk_cat copy).
  OpVertex root_in = boost::source(*boost::in_edges(vertex.at(reduces.back()), g).first, g);
  bool after_embed = false;
  for (auto [e, end] = boost::in_edges(root_in, g); e != end; ++e)
    after_embed = after_embed || g[boost::source(*e, g)].name.rfind("bwd.embed", 0) == 0;
  CHECK(after_embed);
  // chunk_cat: 16-bit gradients read, fp32 written; no divide (NCCL averages).
  const auto& copy = std::get<StreamOp>(g[root_in].shape);
  CHECK(copy.bytes_written == doctest::Approx(2 * copy.bytes_read));
}

TEST_CASE("train: the gather copy-in casts the fp32 shard and copies it; loss=fp32 casts the logits") {
  Workload w = WorkloadCatalog::build(kFsdp2 + ",loss=fp32");
  const OpGraph& g = w.steps.at(0).graph;
  bool cast = false;
  for (OpVertex v : execution_order(g)) {
    if (g[v].name == "zero3.gather.L0.copy_in") {
      const auto& s = std::get<StreamOp>(g[v].shape);
      const double shard = 0.5 * ((32 + 16) * 128 * 4096.0 + 32 * 128 * 4096.0 + 3 * 4096.0 * 14336 + 2 * 4096.0);
      CHECK(s.bytes_read == doctest::Approx(shard * (4 + 2)));
      CHECK(s.bytes_written == doctest::Approx(shard * (2 + 2)));
    }
    cast = cast || g[v].name == "loss.logits_cast";
  }
  CHECK(cast);
  CHECK_THROWS_WITH(WorkloadCatalog::build("train:model=gpt2,batch=2,seq=128,dp=2,zero=2,zero_impl=fsdp2"),
                    doctest::Contains("needs zero=3"));
  CHECK_THROWS_WITH(WorkloadCatalog::build("train:model=gpt2,batch=2,seq=128,weights=fp32,act=bf16,loss=act"),
                    doctest::Contains("loss runs in fp32"));
  CHECK_THROWS_WITH(WorkloadCatalog::build("train:model=gpt2,batch=2,seq=128,reduce=int8"),
                    doctest::Contains("reduce:"));
}

TEST_CASE("collective.compute_share: device work beside a gradient collective runs on the SMs left") {
  auto seconds = [](const std::string& share) {
    CliRun r = run_hwsim("--system h200x2 -q --summary --json - -w train:model=gpt2,layers=2,batch=8,seq=512,dp=2 "
                         "--set collective.compute_share=" + share);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return nlohmann::json::parse(r.out)["result"]["seconds"].get<double>();
  };
  const double none = seconds("0"), some = seconds("0.18"), more = seconds("0.5");
  CHECK(some > none);
  CHECK(more > some);
  // At most the whole overlap slowed: never more than share / (1 − share) of the step.
  CHECK(more <= none * 2);
}
