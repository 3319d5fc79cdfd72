// Every kind of run keeps the physical invariants (tests/fixtures/invariants.h) in the summary a
// user reads: every shipped chip on the shipped presets and op workloads of its kind, every
// shipped system on collectives and tensor- and pipeline-parallel layouts (the pipeline of issue
// 33's table among them), serving on a chip and on systems, and the README's kernel programs. A
// workload a chip cannot hold or run is refused in one line (exit 4) and skipped; each chip must
// run most of its list.
#include <doctest/doctest.h>

#include <set>

#include "ops/device.h"
#include "sim/config/config.h"
#include "tests/fixtures/invariants.h"
#include "tests/fixtures/json_run.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {

// Runs `args` with --json; false when hwsim refused the workload (exit 4, one line); every other
// failure, and every invariant broken, fails the test.
bool check_run(const std::string& args) {
  static int n = 0;
  auto json = scratch_dir() / ("inv" + std::to_string(++n) + ".json");
  CliRun r = run_hwsim(args + " --quiet --json '" + json.string() + "'");
  INFO(args);
  if (r.exit_code == 4 && lines_of(r.err).size() == 1) return false;
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto doc = nlohmann::json::parse(read_text(json));
  std::vector<std::string> broken = args.find("--kernel") != std::string::npos ? Invariants().of_kernel(doc)
                                                                               : Invariants().of_run(doc);
  for (const auto& b : broken) FAIL_CHECK(args << ": " << b);
  return true;
}

const std::vector<std::string> kGpuWorkloads = {
    "decode_llama8b", "decode_llama70b", "decode_mixtral", "prefill_llama8b", "generate_llama8b", "train_gpt2",
    "decode:model=llama3_8b,batch=64,context=2048", "gemm:M=4096,N=4096,K=4096,dtype=bf16",
    "gemm:M=8192,N=8192,K=8192,dtype=fp8", "gemm:M=8192,N=8192,K=8192,dtype=fp4", "gemm:M=1,N=4096,K=4096,dtype=bf16",
    "elementwise:op=rmsnorm,T=4096,D=4096,repeat=3", "attention:batch=8,heads=32,kv_heads=8,head_dim=128,q_len=1,kv_len=4096",
    "kws_dscnn"};
const std::vector<std::string> kTpuWorkloads = {"decode_llama8b", "prefill_llama8b", "decode_llama70b",
                                                "gemm:M=4096,N=4096,K=4096,dtype=bf16", "train_gpt2", "ic_resnet8"};
const std::vector<std::string> kMcuWorkloads = {"kws_dscnn", "vww_mobilenet", "ic_resnet8", "ad_fc_autoencoder"};
const std::vector<std::string> kCpuWorkloads = {
    "decode_llama8b", "decode_llama70b", "prefill_llama8b", "generate_llama8b", "train_gpt2",
    "decode:model=llama2_7b,weights=int4,context=512", "decode:model=llama2_7b,weights=int8,context=64,batch=16",
    "prefill:model=llama3_8b,weights=int4,prompt=512", "gemm:M=4096,N=4096,K=4096,dtype=bf16",
    "gemm:M=1,N=4096,K=4096,dtype=fp32", "elementwise:op=rmsnorm,T=4096,D=4096,repeat=3",
    "attention:batch=8,heads=32,kv_heads=8,head_dim=128,q_len=1,kv_len=4096", "kws_dscnn"};

// Spatial chips also as deployments of many chips (a pipeline over Groq's, tensor-parallel Wormholes).
const std::vector<std::string> kSpatialWorkloads = {
    "decode_llama8b", "prefill_llama8b", "generate_llama8b", "decode:model=llama3_1_8b,weights=int4,kv=int8,context=128",
    "decode:model=llama3_1_8b,weights=int4,kv=int8,batch=32,context=128", "decode_llama8b --set spatial.chips=80",
    "decode_llama70b --set spatial.chips=700", "gemm:M=4096,N=4096,K=4096,dtype=bf16",
    "gemm:M=1,N=4096,K=4096,dtype=bf16", "elementwise:op=rmsnorm,T=4096,D=4096,repeat=3",
    "attention:batch=8,heads=32,kv_heads=8,head_dim=128,q_len=1,kv_len=4096"};

void check_chip(const std::string& chip) {
  const std::string kind = load_chip(chip, {}).kind();
  const auto& list = kind == "gpu" ? kGpuWorkloads : kind == "systolic" ? kTpuWorkloads
                     : kind == "cpu"  ? kCpuWorkloads : kind == "spatial" ? kSpatialWorkloads : kMcuWorkloads;
  std::size_t ran = 0;
  for (const auto& w : list) ran += check_run("--chip " + chip + " -w " + w);
  CHECK_MESSAGE(ran * 2 >= list.size(), chip << " ran only " << ran << " of " << list.size());
}

}  // namespace

#define HWSIM_CHIP_CASE(chip) \
  TEST_CASE("invariants: chip " chip) { check_chip(chip); }
HWSIM_CHIP_CASE("a100")
HWSIM_CHIP_CASE("b200")
HWSIM_CHIP_CASE("gb200")
HWSIM_CHIP_CASE("h100")
HWSIM_CHIP_CASE("h200")
HWSIM_CHIP_CASE("l40s")
HWSIM_CHIP_CASE("mi300x")
HWSIM_CHIP_CASE("mi325x")
HWSIM_CHIP_CASE("rtx4090")
HWSIM_CHIP_CASE("rtx5090")
HWSIM_CHIP_CASE("tpu_v4")
HWSIM_CHIP_CASE("tpu_v5e")
HWSIM_CHIP_CASE("tpu_v5p")
HWSIM_CHIP_CASE("tpu_v6e")
HWSIM_CHIP_CASE("tpu_scalesim")
HWSIM_CHIP_CASE("cortex_m55_u55")
HWSIM_CHIP_CASE("cortex_m7_stm32h7")
HWSIM_CHIP_CASE("cortex_m85")
HWSIM_CHIP_CASE("cortex_m4_stm32l4r5")
HWSIM_CHIP_CASE("cortex_m33_stm32u575")
HWSIM_CHIP_CASE("xeon_8480")
HWSIM_CHIP_CASE("threadripper_7960x")
HWSIM_CHIP_CASE("graviton3")
HWSIM_CHIP_CASE("apple_m2_ultra_cpu")
HWSIM_CHIP_CASE("apple_m2_pro_cpu")
HWSIM_CHIP_CASE("apple_m2_max_cpu")
HWSIM_CHIP_CASE("jetson_agx_orin")
HWSIM_CHIP_CASE("apple_m2_ultra_gpu")
HWSIM_CHIP_CASE("apple_m2_max_gpu")
HWSIM_CHIP_CASE("groq_lpu")
HWSIM_CHIP_CASE("tt_wormhole_n150")
HWSIM_CHIP_CASE("tt_wormhole_n300")
HWSIM_CHIP_CASE("tt_blackhole_p150")
HWSIM_CHIP_CASE("cerebras_wse3")

TEST_CASE("invariants: every shipped chip has its case") {
  const std::set<std::string> tested = {"a100", "b200", "gb200", "h100", "h200", "l40s", "mi300x", "mi325x", "rtx4090",
                                        "rtx5090", "tpu_v4", "tpu_v5e", "tpu_v5p", "tpu_v6e", "tpu_scalesim", "cortex_m55_u55",
                                        "cortex_m7_stm32h7", "cortex_m85", "cortex_m4_stm32l4r5", "cortex_m33_stm32u575",
                                        "xeon_8480", "threadripper_7960x", "graviton3", "apple_m2_ultra_cpu",
                                        "apple_m2_pro_cpu", "apple_m2_max_cpu", "jetson_agx_orin", "apple_m2_ultra_gpu",
                                        "apple_m2_max_gpu", "groq_lpu", "tt_wormhole_n150", "tt_wormhole_n300",
                                        "tt_blackhole_p150", "cerebras_wse3"};
  for (const auto& chip : shipped_chips()) CHECK_MESSAGE(tested.count(chip), chip << " has no invariants case");
}

namespace {
void check_system(const std::string& system) {
  const std::vector<std::string> list = {
      "collective:op=all_reduce,bytes=1KiB..256MiB,factor=16,ranks=2",
      "collective:op=all_gather,bytes=64MiB,ranks=2",
      "decode:model=llama3_8b,batch=8,context=512,tp=2",
      "decode:model=llama3_8b,batch=8,context=512,pp=2,microbatches=2",
      "train:model=llama3_8b,layers=2,batch=4,seq=256,dp=2",
      "serve:model=llama3_8b,requests=12,rate=20,prompt=uniform:32..256,output=uniform:4..24,seed=2,tp=2"};
  std::size_t ran = 0;
  for (const auto& w : list) ran += check_run("--system " + system + " -w " + w);
  CHECK_MESSAGE(ran * 2 >= list.size(), system << " ran only " << ran << " of " << list.size());
}
}  // namespace

#define HWSIM_SYSTEM_CASE(system) \
  TEST_CASE("invariants: system " system) { check_system(system); }
HWSIM_SYSTEM_CASE("a100x2_nvlink")
HWSIM_SYSTEM_CASE("dgx_h100")
HWSIM_SYSTEM_CASE("h100_cluster")
HWSIM_SYSTEM_CASE("h100x2")
HWSIM_SYSTEM_CASE("h200x2")
HWSIM_SYSTEM_CASE("h200x4")
HWSIM_SYSTEM_CASE("mi300x_x8")
HWSIM_SYSTEM_CASE("rtx4090x2_pcie")
HWSIM_SYSTEM_CASE("tpu_v5e_16x16")
HWSIM_SYSTEM_CASE("tpu_v5p_4x4x8")

TEST_CASE("invariants: every shipped system has its case") {
  const std::set<std::string> tested = {"a100x2_nvlink", "dgx_h100", "h100_cluster", "h100x2", "h200x2",
                                        "h200x4", "mi300x_x8", "rtx4090x2_pcie", "tpu_v5e_16x16", "tpu_v5p_4x4x8"};
  for (const auto& s : shipped_systems()) CHECK_MESSAGE(tested.count(s), s << " has no invariants case");
}

TEST_CASE("invariants: the pipelines, collectives and training of issue 33's table") {
  CHECK(check_run("--system dgx_h100 -w decode:model=llama3_70b,batch=8,context=2048,pp=4,tp=2,microbatches=4"));
  CHECK(check_run("--system dgx_h100 -w decode:model=llama3_70b,batch=8,context=2048,pp=4,tp=2,microbatches=8"));
  CHECK(check_run("--system h200x2 -w collective:op=all_reduce,bytes=1KiB..64MiB,factor=8,ranks=2"));
  CHECK(check_run("--system h100_cluster -w collective:op=all_reduce,bytes=64MiB,ranks=16"));
  CHECK(check_run("--system dgx_h100 -w train:model=llama3_8b,layers=4,batch=8,seq=1024,pp=2,tp=2,dp=2,microbatches=4"));
  CHECK(check_run("--system h200x4 -w train:model=llama3_8b,layers=2,batch=4,seq=512,dp=4,zero=3,checkpoint=full"));
  // Stop 45: sequence parallelism with selective recomputation; autocast on one GPU.
  CHECK(check_run("--system dgx_h100 -w train:model=llama3_8b,layers=4,batch=8,seq=1024,pp=2,tp=4,microbatches=4,"
                  "sequence_parallel=true,checkpoint=selective"));
  CHECK(check_run("--chip h200 -w train:model=gpt2,batch=4,seq=1024,microbatches=2,weights=fp32,act=bf16"));
  // The multi-device presets: 8B trains on a DGX; 70B is refused there (one line, its advice).
  CHECK(check_run("--system dgx_h100 -w train_llama8b"));
  CHECK_FALSE(check_run("--system dgx_h100 -w train_llama70b"));
  CHECK(check_run("--system dgx_h100 -w decode_llama70b:tp=8"));
  CHECK(check_run("--system dgx_h100 -w decode_mixtral:tp=2,ep=4,batch=8"));
  // NVLS, rails across nodes, a ring of sends; a Chakra trace with recorded durations replayed.
  CHECK(check_run("--system dgx_h100 -w collective:op=all_reduce,bytes=1MiB..4GiB,factor=16,ranks=8"));
  CHECK(check_run("--system h100_cluster -w collective:op=all_gather,bytes=1GiB,ranks=32"));
  CHECK(check_run("--system dgx_h100 -w collective:op=send_recv,bytes=256MiB,ranks=8"));
  CHECK(check_run("--system h200x2 -w chakra:file=" + std::string(HWSIM_SOURCE_DIR) + "/tests/data/chakra.0.et"));
}

TEST_CASE("invariants: serving with prefix caching and priorities") {
  // a shared system prompt under a small pool (preemptions, evictions); priorities with preemption
  CHECK(check_run("--chip h100 -w serve:model=llama3_8b,requests=24,rate=inf,prompt=uniform:600..900,output=uniform:"
                  "8..64,seed=2,shared_prefix=512,kv_blocks=120"));
  CHECK(check_run("--chip h100 -w serve:model=llama3_8b,requests=30,rate=inf,prompt=256,output=48,max_batch=12,"
                  "kv_blocks=120,scheduling=priority,priority=uniform:0..2,shared_prefix=128"));
  CHECK(check_run("--system dgx_h100 -w serve:model=llama3_8b,requests=16,rate=10,prompt=256,output=16,"
                  "shared_prefix=200,scheduling=priority,priority=uniform:0..1,disaggregate=1P1D"));
}

TEST_CASE("invariants: serving on a chip, with preemption, speculation and reuse=ops") {
  CHECK(check_run("--chip h100 -w serve:model=llama3_8b,requests=40,rate=20,prompt=uniform:32..512,output=uniform:8..64,seed=1"));
  CHECK(check_run("--chip h100 -w serve:model=llama3_8b,requests=24,rate=inf,prompt=128,output=24,max_batch=8"));
  CHECK(check_run("--chip h100 -w serve:model=llama3_8b,requests=16,rate=inf,prompt=128,output=16,preemption=swap,max_batch=4"));
  CHECK(check_run("--chip h100 -w serve:model=llama3_8b,requests=8,rate=inf,prompt=128,output=32,draft=llama3_2_1b,k=4,accept=0.7"));
  CHECK(check_run("--chip h100 -w serve:model=llama3_8b,requests=12,rate=inf,prompt=128,output=16,reuse=ops"));
  CHECK(check_run("--chip tpu_v5p -w serve:model=llama3_8b,requests=8,rate=10,prompt=64,output=8"));
  CHECK(check_run("--system dgx_h100 -w serve:model=llama3_8b,requests=16,rate=10,prompt=128,output=16,disaggregate=1P1D"));
}

TEST_CASE("invariants: the README's kernel programs") {
  std::size_t ran = 0;
  for (const char* readme : {"README.md", "workloads/kernels/README.md"})
    for (const std::string& line : lines_of(read_text(std::filesystem::path(HWSIM_SOURCE_DIR) / readme))) {
      auto at = line.find("hwsim --chip");
      if (at == std::string::npos || line.find("--kernel") == std::string::npos) continue;
      std::string args = line.substr(at + 6);
      args = args.substr(0, args.find('#'));
      for (const char* out : {" --json out.json", " --trace trace.json", " --dump c"})  // the test writes its own
        if (auto p = args.find(out); p != std::string::npos) args.erase(p, std::string(out).size());
      ran += check_run(args);
    }
  CHECK(ran >= 4);
}

